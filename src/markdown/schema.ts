import { Fields, StringEnum } from "../http/fields";
import { Type } from "@sinclair/typebox";
import { commonFields, documentFields } from "../documents/fields";

const pageOptions = {
  main_content: Type.Boolean({ default: true, description: "web pages: strip boilerplate (navigation, footers, ads); an uploaded HTML file is a document: only the site's menus, banner, footer and skip links are left out; false keeps the whole page" }),
  wait_ms: Type.Integer({ minimum: 0, maximum: 30000, default: 0, description: "web pages: extra wait after the network settles, in ms" }),
  selector: Type.String({ minLength: 1, maxLength: 500, description: "web pages: convert only the element matching this CSS selector" }),
  render: commonFields.render(),
};

export const MarkdownConvertBody = Fields({
  ...documentFields(),
  ...pageOptions,
});

export const MarkdownUrlQuery = Fields(pageOptions);

/** MarkdownConvertQuery: `format=markdown` answers text/markdown, as `Accept: text/markdown` does. */
export const MarkdownConvertQuery = Fields({
  format: StringEnum(["json", "markdown"] as const, { description: "json (default): the JSON result; markdown: the markdown alone as text/markdown, with the result's facts in headers (as Accept: text/markdown)" }),
});

export const MarkdownResponse = Type.Object(
  {
    success: Type.Literal(true),
    markdown: Type.String(),
    title: Type.Union([Type.String(), Type.Null()]),
    filename: Type.String(),
    content_type: Type.String(),
    total_pages: Type.Integer({ description: "0 for non-paginated inputs" }),
    text_length: Type.Integer(),
    extraction_method: Type.String({
      description:
        "How the text was obtained: text (a text layer or markup), ocr, text+ocr (PDF with scanned pages), browser (a web page rendered with JavaScript), html (HTML converted without running scripts), libreoffice+text (legacy/ODF/iWork formats converted through LibreOffice), metadata / metadata+transcript (audio and video)",
    }),
    warnings: Type.Array(Type.String(), { description: "Everything that was skipped, guessed or degraded, e.g. pages OCRed with low confidence, no speech-to-text provider configured" }),
    pages: Type.Optional(
      Type.Array(
        Type.Object({
          page: Type.Integer({ description: "1-based page number" }),
          method: Type.String({ description: "text, ocr or empty" }),
          chars: Type.Integer({ description: "characters of text found on the page" }),
          ocr_quality: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: "OCR pages: tesseract's mean word confidence, 0 to 1" })),
        }),
        { description: "Paginated documents (PDF, images): how each page was read" },
      ),
    ),
    source_url: Type.Optional(Type.String({ description: "URL inputs: the URL after redirects" })),
    credits_used: Type.Integer({ description: "1, plus 1 per started minute of transcribed audio or video" }),
  },
  { title: "MarkdownResult" },
);

export const SupportedResponse = Type.Object(
  {
    success: Type.Literal(true),
    total_extensions: Type.Integer(),
    families: Type.Array(
      Type.Object({
        family: Type.String(),
        description: Type.String(),
        extensions: Type.Array(Type.String()),
        mime_types: Type.Array(Type.String()),
      }),
    ),
  },
  { title: "MarkdownSupported" },
);
