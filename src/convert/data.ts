/**
 * Structured data files (JSON, JSON Lines, GeoJSON, YAML, XML): checked for syntax so a broken file
 * is reported instead of passed on, then shown as fenced code. JSON is re-indented token by token,
 * never parsed into values, so big numbers and duplicate keys survive exactly as written.
 */
import { AppError } from "../errors";
import { checkMarkdownSize, fence, textHeading } from "./markdown";
import { decodeText } from "./charset";
import { looksBinary } from "./text";
import type { Conversion, ConvertInput, ConvertLimits, Converter } from "./types";

/** JsonSyntaxError marks the offset (in UTF-16 code units) where a JSON text stops being valid. */
class JsonSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
  }
}

const JSON_NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const JSON_ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** jsonStringEnd returns the offset just past the string starting at `start` (a quote), or -1. */
function jsonStringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) return -1;
    if (code === 0x5c) {
      JSON_ESCAPE.lastIndex = i;
      const escape = JSON_ESCAPE.exec(text);
      if (!escape) return -1;
      i += escape[0].length - 1;
    }
  }
  return -1;
}

/** jsonScalarEnd returns the offset just past the string, number or literal at `start`, or -1. */
function jsonScalarEnd(text: string, start: number): number {
  const c = text[start];
  if (c === '"') return jsonStringEnd(text, start);
  for (const literal of ["true", "false", "null"]) if (text.startsWith(literal, start)) return start + literal.length;
  JSON_NUMBER.lastIndex = start;
  const number = JSON_NUMBER.exec(text);
  return number ? start + number[0].length : -1;
}

/** skipJsonSpace returns the first offset from `start` that is not JSON whitespace. */
function skipJsonSpace(text: string, start: number): number {
  let i = start;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
  }
  return i;
}

/** MAX_INDENT_LEVELS: nesting depth beyond which formatJson indents no further */
const MAX_INDENT_LEVELS = 40;

type Expect = "value" | "valueOrEnd" | "key" | "keyOrEnd" | "colon" | "commaOrEnd" | "end";

/**
 * formatJson validates one JSON text and returns it indented by `indent` spaces per level (or on one
 * line when `indent` is 0). It walks the tokens with an explicit stack, so deep nesting cannot
 * overflow the call stack. Throws JsonSyntaxError at the first invalid token, and 413 as soon as the
 * output passes the markdown cap (nesting makes a few MB of brackets into hundreds of MB of indents).
 */
function formatJson(text: string, indent: number, limits: ConvertLimits, what: string): string {
  let out = "";
  const stack: string[] = [];
  let expect = "value" as Expect; // a cast, so narrowing does not forget that closures change it
  let pos = 0;
  let justOpened = false;
  // indentation stops growing at MAX_INDENT_LEVELS so absurd nesting cannot blow up the output
  const newlines = Array.from({ length: MAX_INDENT_LEVELS + 1 }, (_, depth) => (indent ? `\n${" ".repeat(indent * depth)}` : ""));
  const newline = () => newlines[Math.min(stack.length, MAX_INDENT_LEVELS)]!;
  const take = (): string | null => {
    const end = jsonScalarEnd(text, pos);
    if (end < 0) return null;
    const token = text.slice(pos, end);
    pos = end;
    return token;
  };
  const emitValueStart = () => {
    if (justOpened) out += newline();
    justOpened = false;
  };
  const afterValue = () => {
    expect = stack.length ? "commaOrEnd" : "end";
  };
  const close = (c: string) => {
    stack.pop();
    if (!justOpened) out += newline();
    out += c;
    justOpened = false;
    pos++;
    afterValue();
  };
  while (true) {
    checkMarkdownSize(out.length, limits, what);
    pos = skipJsonSpace(text, pos);
    if (pos >= text.length) {
      if (expect === "end") return out;
      throw new JsonSyntaxError(stack.length ? `unexpected end of data inside ${stack.length} unclosed ${stack.at(-1) === "{" ? "object" : "array"}(s)` : "no JSON value", pos);
    }
    const c = text[pos]!;
    switch (expect) {
      case "value":
      case "valueOrEnd": {
        if (c === "]" && expect === "valueOrEnd") {
          close(c);
          continue;
        }
        emitValueStart();
        if (c === "{" || c === "[") {
          out += c;
          stack.push(c);
          pos++;
          justOpened = true;
          expect = c === "{" ? "keyOrEnd" : "valueOrEnd";
          continue;
        }
        const scalar = take();
        if (scalar === null) throw new JsonSyntaxError(c === '"' ? "invalid string (unescaped control character or bad escape)" : `unexpected character '${c}' where a value was expected`, pos);
        out += scalar;
        afterValue();
        continue;
      }
      case "key":
      case "keyOrEnd": {
        if (c === "}" && expect === "keyOrEnd") {
          close(c);
          continue;
        }
        emitValueStart();
        const key = c === '"' ? take() : null;
        if (key === null) throw new JsonSyntaxError(`expected a quoted property name, found '${c}'`, pos);
        out += key;
        expect = "colon";
        continue;
      }
      case "colon":
        if (c !== ":") throw new JsonSyntaxError(`expected ':' after a property name, found '${c}'`, pos);
        out += indent ? ": " : ":";
        pos++;
        expect = "value";
        continue;
      case "commaOrEnd": {
        const open = stack.at(-1)!;
        if (c === ",") {
          out += "," + newline();
          pos++;
          expect = open === "{" ? "key" : "value";
          continue;
        }
        if ((c === "}" && open === "{") || (c === "]" && open === "[")) {
          close(c);
          continue;
        }
        throw new JsonSyntaxError(`expected ',' or '${open === "{" ? "}" : "]"}', found '${c}'`, pos);
      }
      case "end":
        throw new JsonSyntaxError(`unexpected '${c}' after the end of the JSON value`, pos);
    }
  }
}

/** lineAndColumn turns an offset into a 1-based line and column. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/** readText decodes a data file and refuses binary or empty content. */
function readText(input: ConvertInput, kind: string): string {
  const text = decodeText(input.bytes, input.declaredCharset).text.replace(/\r\n?/g, "\n");
  if (looksBinary(text)) throw new AppError("unreadable_document", `${input.filename} is not a ${kind} text file (it contains binary data).`);
  if (!text.trim()) throw new AppError("empty_document", `${input.filename} is empty; send a ${kind} file with content.`);
  return text;
}

/**
 * dataConversion puts the fenced data under the file name. Blocks are joined directly, not with
 * joinBlocks, whose trailing-whitespace regex takes seconds on multi-megabyte indented data.
 */
function dataConversion(input: ConvertInput, blocks: string[]): Conversion {
  const title = input.filename || null;
  const markdown = `${[title ? textHeading(1, title) : "", ...blocks].filter((b) => b !== "").join("\n\n")}\n`;
  return { markdown, title, totalPages: 0, method: "text", warnings: [] };
}

/** invalidJson names the document, the line and column and the problem. */
function invalidJson(input: ConvertInput, text: string, error: JsonSyntaxError, lineOffset = 0): AppError {
  const { line, column } = lineAndColumn(text, error.offset);
  return new AppError("unreadable_document", `${input.filename} is not valid JSON: ${error.message} at line ${line + lineOffset}, column ${column}; fix the file or send it as plain text.`, { cause: error });
}

/** geoJsonSummary counts the features of a GeoJSON FeatureCollection (parsing only when it is one). */
function geoJsonSummary(text: string): string {
  try {
    const value = JSON.parse(text) as { type?: unknown; features?: unknown };
    if (value?.type === "FeatureCollection" && Array.isArray(value.features)) return `GeoJSON FeatureCollection with ${value.features.length} feature(s).`;
    if (typeof value?.type === "string") return `GeoJSON ${value.type}.`;
  } catch {
    // already validated by formatJson; JSON.parse only fails on what we do not summarise
  }
  return "";
}

/** formatJsonLines validates every non-empty line and keeps each record on its own line. */
function formatJsonLines(input: ConvertInput, text: string, limits: ConvertLimits): { body: string; records: number } {
  const lines: string[] = [];
  text.split("\n").forEach((line, index) => {
    if (!line.trim()) return;
    try {
      lines.push(formatJson(line, 0, limits, `'${input.filename}'`));
    } catch (error) {
      if (error instanceof JsonSyntaxError) throw invalidJson(input, line, error, index);
      throw error;
    }
  });
  return { body: lines.join("\n"), records: lines.length };
}

/** convertJson handles .json, .geojson (indented) and .jsonl/.ndjson (one record a line). */
export const convertJson: Converter = async (input, ctx) => {
  const text = readText(input, "JSON");
  const lineDelimited = input.ext === "jsonl" || input.ext === "ndjson" || /json-seq|x-ndjson|jsonl/.test(input.contentType);
  if (lineDelimited) {
    const { body, records } = formatJsonLines(input, text, ctx.limits);
    return dataConversion(input, [`${records} JSON record(s), one per line.`, fence(body, "json")]);
  }
  let pretty: string;
  try {
    pretty = formatJson(text, 2, ctx.limits, `'${input.filename}'`);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw invalidJson(input, text, error);
    throw error;
  }
  const summary = input.ext === "geojson" || input.contentType === "application/geo+json" ? geoJsonSummary(text) : "";
  return dataConversion(input, [summary, fence(pretty, "json")]);
};

/** convertYaml keeps YAML as written (comments and anchors included) in a yaml fence. */
export const convertYaml: Converter = async (input) => {
  const text = readText(input, "YAML");
  return dataConversion(input, [fence(text, "yaml")]);
};

const XML_TAG = /<([A-Za-z_:][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y;
const XML_END_TAG = /<\/([A-Za-z_:][^\s/>]*)\s*>/y;

/**
 * xmlProblem is a cheap well-formedness check: tags balance and nest, comments, CDATA, processing
 * instructions and the doctype are closed, and there is a root element. It does not check entities
 * or attribute syntax in detail, so lenient real-world XML passes. Returns null when well formed.
 */
export function xmlProblem(text: string): { message: string; offset: number } | null {
  const stack: Array<{ name: string; offset: number }> = [];
  let roots = 0;
  let pos = text.indexOf("<");
  const skipTo = (terminator: string, what: string, start: number): { message: string; offset: number } | null => {
    const end = text.indexOf(terminator, start);
    if (end < 0) return { message: `unclosed ${what}`, offset: start };
    pos = end + terminator.length;
    return null;
  };
  while (pos >= 0 && pos < text.length) {
    const start = pos;
    let problem: { message: string; offset: number } | null = null;
    if (text.startsWith("<!--", pos)) problem = skipTo("-->", "comment", pos);
    else if (text.startsWith("<![CDATA[", pos)) problem = skipTo("]]>", "CDATA section", pos);
    else if (text.startsWith("<?", pos)) problem = skipTo("?>", "processing instruction", pos);
    else if (/^<!DOCTYPE/i.test(text.slice(pos, pos + 9))) {
      const bracket = text.indexOf("[", pos);
      const close = text.indexOf(">", pos);
      problem = bracket >= 0 && bracket < close ? skipTo("]", "doctype", bracket) ?? skipTo(">", "doctype", pos) : skipTo(">", "doctype", pos);
    } else if (text.startsWith("</", pos)) {
      XML_END_TAG.lastIndex = pos;
      const match = XML_END_TAG.exec(text);
      if (!match) return { message: "malformed closing tag", offset: pos };
      const open = stack.pop();
      if (!open) return { message: `closing tag </${match[1]}> without an opening tag`, offset: pos };
      if (open.name !== match[1]) return { message: `closing tag </${match[1]}> does not match <${open.name}>`, offset: pos };
      pos += match[0].length;
    } else {
      XML_TAG.lastIndex = pos;
      const match = XML_TAG.exec(text);
      if (!match) return { message: "'<' that does not start a tag (escape it as &lt;)", offset: pos };
      if (stack.length === 0) roots++;
      if (!match[2]!.trimEnd().endsWith("/")) stack.push({ name: match[1]!, offset: pos });
      pos += match[0].length;
    }
    if (problem) return problem;
    if (pos <= start) pos = start + 1;
    pos = text.indexOf("<", pos);
  }
  if (stack.length) return { message: `element <${stack.at(-1)!.name}> is never closed`, offset: stack.at(-1)!.offset };
  if (roots === 0) return { message: "no root element", offset: 0 };
  return null;
}

/** convertXml checks XML for well-formedness and shows it in an xml fence. */
export const convertXml: Converter = async (input) => {
  const text = readText(input, "XML");
  const problem = xmlProblem(text);
  if (problem) {
    const { line, column } = lineAndColumn(text, problem.offset);
    throw new AppError("unreadable_document", `${input.filename} is not well-formed XML: ${problem.message} at line ${line}, column ${column}; fix the file or send it as plain text.`);
  }
  return dataConversion(input, [fence(text, "xml")]);
};
