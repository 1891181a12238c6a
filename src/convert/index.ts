/**
 * convertDocument picks the converter for a document from the FORMATS table and runs it. Formats
 * that only LibreOffice reads (DOC, ODT, RTF, iWork, XLS, PPT, ...) are first turned into the
 * matching Office Open XML file, so one set of native converters writes all office markdown.
 */
import { AppError } from "../errors";
import { extensionOf } from "../ingest/sniff";
import { formatOf, noReaderAdvice, type Engine, type Format } from "./formats";
import type { Conversion, ConvertContext, ConvertInput, Converter } from "./types";
import { tooDeep } from "./nesting";
import { convertPdf } from "./pdf";
import { convertDocx } from "./docx";
import { convertXlsx } from "./xlsx";
import { convertPptx } from "./pptx";
import { convertDelimited } from "./delimited";
import { convertEpub } from "./epub";
import { convertHtml } from "./html";
import { convertFeed, isFeed } from "./feed";
import { convertJats, isJats } from "./jats";
import { convertPatent, isPatent } from "./patent";
import { convertApsPatent, isApsPatent } from "./patentAps";
import { convertText } from "./text";
import { convertAsciiDoc } from "./asciidoc";
import { convertSubtitles } from "./subtitles";
import { convertCode } from "./code";
import { convertJson, convertXml, convertYaml } from "./data";
import { convertNotebook } from "./notebook";
import { convertEml, convertMbox, convertMsg } from "./email";
import { convertImage } from "./image";
import { convertMedia } from "./media";
import { convertArchive } from "./archive";
import { convertXps } from "./xps";
import { checkXlsbImport } from "./xlsb";
import { savedVolatileCells } from "./odsSaved";

type NativeEngine = Exclude<Engine, `office:${string}`>;

const CONVERTERS: Record<NativeEngine, Converter> = {
  pdf: convertPdf,
  docx: convertDocx,
  xlsx: convertXlsx,
  pptx: convertPptx,
  epub: convertEpub,
  delimited: convertDelimited,
  text: convertTextOrPatent,
  asciidoc: convertAsciiDoc,
  subtitles: convertSubtitles,
  code: convertCode,
  json: convertJson,
  yaml: convertYaml,
  xml: convertXmlOrFeed,
  feed: convertFeed,
  html: convertHtml,
  notebook: convertNotebook,
  eml: convertEml,
  msg: convertMsg,
  mbox: convertMbox,
  image: convertImage,
  media: convertMedia,
  archive: (input, ctx) => convertArchive(input, ctx, convertDocument),
  xps: convertXps,
};

/**
 * convertXmlOrFeed reads XML by its root element: RSS and Atom feeds, JATS journal articles and
 * USPTO patents as documents, any other XML as a fenced block.
 */
function convertXmlOrFeed(input: ConvertInput, ctx: ConvertContext): Promise<Conversion> {
  const head = new TextDecoder().decode(input.bytes.subarray(0, 16384));
  if (isFeed(head)) return convertFeed(input, ctx);
  if (isJats(head)) return convertJats(input, ctx);
  if (isPatent(head)) return convertPatent(input, ctx);
  return convertXml(input, ctx);
}

/** convertTextOrPatent reads a USPTO APS patent text (PATN records) as a patent, any other text as text. */
function convertTextOrPatent(input: ConvertInput, ctx: ConvertContext): Promise<Conversion> {
  const head = new TextDecoder().decode(input.bytes.subarray(0, 1024));
  return isApsPatent(head) ? convertApsPatent(input, ctx) : convertText(input, ctx);
}

/** SAVED_VALUES_OF: the OpenDocument spreadsheet extensions whose volatile formulas' saved values are kept (odsSaved.ts) */
const SAVED_VALUES_OF = new Set(["ods", "ots", "fods"]);

/** OFFICE_IMPORT_CHECKS: by source extension, checks of LibreOffice's output for what its import loses without an error */
const OFFICE_IMPORT_CHECKS: Record<string, (input: ConvertInput, converted: Uint8Array, ctx: ConvertContext) => void> = {
  xlsb: checkXlsbImport,
};

export interface DocumentConversion extends Conversion {
  format: Format;
}

/** formatFor finds the format of a document or throws 415 naming what it is. */
export function formatFor(input: ConvertInput): Format {
  const format = formatOf(input, extensionOf(input.filename));
  if (!format) {
    const advice = noReaderAdvice(input.contentType);
    if (advice) throw new AppError("unsupported_media_type", `'${input.filename}' is ${advice}`);
    throw new AppError(
      "unsupported_media_type",
      `'${input.filename}' is ${input.contentType}, which markdown conversion does not support; GET /api/v1/markdown/supported lists the formats`,
    );
  }
  return format;
}

/**
 * convertDocument converts one document; the context's signal carries the deadline. A document nested
 * deeper than a converter's recursion can follow (the stack runs out) is unreadable, said so, not an
 * internal error: each converter bounds the nesting it knows of, this catches what one misses.
 */
export async function convertDocument(input: ConvertInput, ctx: ConvertContext): Promise<DocumentConversion> {
  try {
    return await convertFormat(input, ctx);
  } catch (error) {
    throw tooDeep(error, input.filename) ?? error;
  }
}

/** convertFormat converts one document by its format's converter (through LibreOffice for the formats it imports). */
async function convertFormat(input: ConvertInput, ctx: ConvertContext): Promise<DocumentConversion> {
  const format = formatFor(input);
  ctx.signal.throwIfAborted();
  if (format.engine.startsWith("office:")) {
    const target = format.engine.slice("office:".length) as "docx" | "xlsx" | "pptx" | "pdf";
    const converted = await ctx.tools.office.convert(input.bytes, format.ext, target, ctx.signal);
    ctx.signal.throwIfAborted();
    OFFICE_IMPORT_CHECKS[format.ext]?.(input, converted, ctx);
    // LibreOffice recalculates TODAY() and NOW() on load: the ODS's saved values are laid over its XLSX
    const savedCells = SAVED_VALUES_OF.has(format.ext) ? (savedVolatileCells(input, format.ext, ctx) ?? undefined) : undefined;
    const result = await CONVERTERS[target]({ ...input, bytes: converted, ext: target, savedCells }, ctx);
    return { ...result, method: `libreoffice+${result.method}`, format };
  }
  const result = await CONVERTERS[format.engine as NativeEngine](input, ctx);
  return { ...result, format };
}
