/**
 * Field schemas for request contracts. They are plain TypeBox (so they are JSON Schema and go into
 * the OpenAPI document unchanged) with a few annotations that `validate.ts` reads:
 * `format: "binary"` marks a file part, `x-json` a form field that carries JSON text.
 */
import { Type, type TObject, type TSchema, type SchemaOptions, type TUnsafe } from "@sinclair/typebox";
import type { UploadedFile } from "../ingest/upload";

/** StringEnum is a string restricted to `values`, rendered as a JSON Schema `enum`. */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

/** FileField is one uploaded file (a multipart file part). */
export function FileField(options: SchemaOptions = {}): TUnsafe<UploadedFile> {
  return Type.Unsafe<UploadedFile>({ type: "string", format: "binary", ...options });
}

/** FilesField is a repeatable file part (`files` sent several times). */
export function FilesField(options: SchemaOptions & { maxItems?: number } = {}) {
  const { maxItems, ...rest } = options;
  return Type.Unsafe<UploadedFile[]>({ type: "array", items: { type: "string", format: "binary" }, ...(maxItems ? { maxItems } : {}), ...rest });
}

/** JsonText is a form field holding JSON-encoded text (spec "Conventions" 3). JSON bodies may send the value itself. */
export function JsonText(options: SchemaOptions = {}): TUnsafe<string> {
  return Type.Unsafe<string>({ type: "string", "x-json": true, ...options });
}

export const isFileSchema = (s: TSchema) => s.type === "string" && s.format === "binary";
export const isFilesSchema = (s: TSchema) => s.type === "array" && s.items?.format === "binary";

/**
 * Fields builds a request object schema in which only the names in `required` are required (TypeBox
 * makes every property required by default, which suits responses, not forms).
 */
export function Fields<P extends Record<string, TSchema>>(properties: P, options: SchemaOptions & { required?: (keyof P & string)[] } = {}): TObject {
  const { required = [], ...rest } = options;
  const wrapped = Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, required.includes(k) ? s : Type.Optional(s)]));
  return Type.Object(wrapped, rest);
}
