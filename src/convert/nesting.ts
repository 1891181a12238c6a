/**
 * How deep a document may nest. The converters walk their trees recursively; a hostile file nested
 * tens of thousands deep (group shapes, table cells, a feed's elements) ran the stack out, which the
 * service answered as an internal error. The XML tree builders (ooxml.ts, feed.ts, xmlMarkup.ts) refuse a part past
 * MAX_ELEMENT_DEPTH as they build it; whatever nesting a converter still misses is caught at the top
 * (convertDocument) and said the same way.
 */
import { AppError } from "../errors";

/** MAX_ELEMENT_DEPTH: elements nested deeper than any office file or feed nests them (tens, a few) */
export const MAX_ELEMENT_DEPTH = 2000;

/** nestedTooDeep is the refusal of a part nested past MAX_ELEMENT_DEPTH; `usual` says how deep such files nest. */
export function nestedTooDeep(what: string, usual: string): AppError {
  return new AppError("unreadable_document", `${what} nests its elements more than ${MAX_ELEMENT_DEPTH} deep (${usual}): it is not read`);
}

/** tooDeep is the unreadable_document error for a converter that ran the stack out on `filename`, or null for any other error. */
export function tooDeep(error: unknown, filename: string): AppError | null {
  if (!(error instanceof RangeError) || !/call stack/i.test(error.message)) return null;
  return new AppError("unreadable_document", `${filename || "the document"} nests its structure too deep to read`, { cause: error });
}
