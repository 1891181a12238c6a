import { Fields } from "../app/fields";
import { Type } from "@sinclair/typebox";
import { commonFields } from "../app/fieldsCommon";

const pageOptions = {
  main_content: Type.Boolean({ default: true, description: "web pages: strip boilerplate (navigation, footers, ads); false keeps the whole page" }),
  wait_ms: Type.Integer({ minimum: 0, maximum: 30000, default: 0, description: "web pages: extra wait after the network settles, in ms" }),
  selector: Type.String({ minLength: 1, maxLength: 500, description: "web pages: convert only the element matching this CSS selector" }),
};

export const MarkdownConvertBody = Fields({
  file: commonFields.file(),
  url: commonFields.url(),
  url_headers: commonFields.urlHeaders(),
  ...pageOptions,
});

export const MarkdownUrlQuery = Fields(pageOptions);

export const MarkdownResponse = Type.Object(
  {
    success: Type.Literal(true),
    markdown: Type.String(),
    title: Type.Union([Type.String(), Type.Null()]),
    filename: Type.String(),
    content_type: Type.String(),
    total_pages: Type.Integer({ description: "0 for non-paginated inputs" }),
    text_length: Type.Integer(),
    extraction_method: Type.String({ description: "text, ocr, dom+text, transcript, ..." }),
    warnings: Type.Array(Type.String()),
    credits_used: Type.Integer(),
  },
  { title: "MarkdownResult" },
);
