/**
 * validateFields checks a flat request object (form fields, query or path parameters, or a JSON
 * body) against a TypeBox object schema, coercing text to the declared types the way form and
 * query values arrive, and collects every problem as a spec 422 item ({loc, msg, type, input, ctx}).
 */
import type { TObject, TSchema } from "@sinclair/typebox";
import { RequestValidationError, type ValidationIssue } from "../errors";
import { isFileSchema, isFilesSchema } from "./fields";
import { isUploadedFile } from "../ingest/upload";

export type Location = "body" | "query" | "path";

const TRUE_WORDS = new Set(["true", "1", "yes", "on", "t", "y"]);
const FALSE_WORDS = new Set(["false", "0", "no", "off", "f", "n"]);


function quoteList(values: unknown[]): string {
  const quoted = values.map((v) => `'${String(v)}'`);
  return quoted.length <= 1 ? quoted.join("") : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

function describeInput(value: unknown): unknown {
  if (isUploadedFile(value)) return { filename: value.name || null, size: value.size }; // filename="" reads as no name, as Bun's formData() gave it
  if (Array.isArray(value)) return value.map(describeInput);
  return value;
}

type Check = { ok: true; value: unknown } | { ok: false; issue: Omit<ValidationIssue, "loc" | "input"> };

const fail = (type: string, msg: string, ctx: Record<string, unknown> = {}): Check => ({ ok: false, issue: { type, msg, ctx } });

function checkNumberBounds(n: number, s: TSchema): Check {
  if (s.minimum !== undefined && n < s.minimum) return fail("greater_than_equal", `Input should be greater than or equal to ${s.minimum}`, { ge: s.minimum });
  if (s.maximum !== undefined && n > s.maximum) return fail("less_than_equal", `Input should be less than or equal to ${s.maximum}`, { le: s.maximum });
  return { ok: true, value: n };
}

function checkScalar(value: unknown, s: TSchema): Check {
  switch (s.type) {
    case "integer": {
      let n: number;
      if (typeof value === "number") n = value;
      else if (typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value)) n = Number.parseInt(value, 10);
      else return fail("int_parsing", "Input should be a valid integer, unable to parse string as an integer");
      if (!Number.isInteger(n)) return fail("int_from_float", "Input should be a valid integer, got a number with a fractional part");
      return checkNumberBounds(n, s);
    }
    case "number": {
      const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
      if (!Number.isFinite(n)) return fail("float_parsing", "Input should be a valid number, unable to parse string as a number");
      return checkNumberBounds(n, s);
    }
    case "boolean": {
      if (typeof value === "boolean") return { ok: true, value };
      const word = typeof value === "string" ? value.trim().toLowerCase() : "";
      if (TRUE_WORDS.has(word)) return { ok: true, value: true };
      if (FALSE_WORDS.has(word)) return { ok: true, value: false };
      return fail("bool_parsing", "Input should be a valid boolean, unable to interpret input; send true or false");
    }
    case "string": {
      if (isFileSchema(s)) {
        if (isUploadedFile(value)) return { ok: true, value };
        return fail("file_type", "Input should be a file: send it as a multipart/form-data file part");
      }
      let text: string;
      if (typeof value === "string") text = value;
      else if (s["x-json"] && value !== null && typeof value === "object") text = JSON.stringify(value);
      else if (isUploadedFile(value)) return fail("string_type", "Input should be a valid string, not a file part");
      else return fail("string_type", "Input should be a valid string");
      if (s.enum && !s.enum.includes(text)) {
        const expected = quoteList(s.enum);
        return fail("enum", `Input should be ${expected}`, { expected });
      }
      if (s.minLength !== undefined && text.length < s.minLength)
        return fail("string_too_short", `String should have at least ${s.minLength} character${s.minLength === 1 ? "" : "s"}`, { min_length: s.minLength });
      if (s.maxLength !== undefined && text.length > s.maxLength)
        return fail("string_too_long", `String should have at most ${s.maxLength} characters`, { max_length: s.maxLength });
      if (s.pattern !== undefined && !new RegExp(s.pattern).test(text))
        return fail("string_pattern_mismatch", `String should match pattern '${s.pattern}'`, { pattern: s.pattern });
      return { ok: true, value: text };
    }
    default:
      return { ok: true, value };
  }
}

function checkFiles(value: unknown, s: TSchema): Check {
  const list = Array.isArray(value) ? value : [value];
  if (!list.every(isUploadedFile)) return fail("file_type", "Input should be one or more files: send each as a multipart/form-data file part");
  if (s.maxItems !== undefined && list.length > s.maxItems)
    return fail("too_long", `List should have at most ${s.maxItems} items after validation, not ${list.length}`, { max_length: s.maxItems, actual_length: list.length });
  return { ok: true, value: list };
}

/** validateFields returns the coerced object (defaults applied) or throws RequestValidationError. */
export function validateFields<T extends TObject>(schema: T, raw: unknown, location: Location): Record<string, unknown> {
  if (raw === null || raw === undefined) raw = {};
  if (typeof raw !== "object" || Array.isArray(raw) || isUploadedFile(raw)) {
    throw new RequestValidationError([
      { loc: [location], msg: "Input should be a valid dictionary or object to extract fields from", type: "model_attributes_type", input: describeInput(raw), ctx: {} },
    ]);
  }
  const input = raw as Record<string, unknown>;
  const required = new Set(schema.required ?? []);
  const out: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  for (const [name, fieldSchema] of Object.entries(schema.properties) as [string, TSchema][]) {
    let value = input[name];
    if (value === undefined || value === null) {
      if (required.has(name)) issues.push({ loc: [location, name], msg: "Field required", type: "missing", input: null, ctx: {} });
      else if (fieldSchema.default !== undefined) out[name] = fieldSchema.default;
      continue;
    }
    let check: Check;
    if (isFilesSchema(fieldSchema)) check = checkFiles(value, fieldSchema);
    else {
      if (Array.isArray(value)) {
        if (value.length !== 1) {
          issues.push({ loc: [location, name], msg: `Input should be a single value; '${name}' was sent ${value.length} times`, type: "multiple_values", input: describeInput(value), ctx: { count: value.length } });
          continue;
        }
        value = value[0];
      }
      check = checkScalar(value, fieldSchema);
    }
    if (check.ok) out[name] = check.value;
    else issues.push({ loc: [location, name], input: describeInput(value), ...check.issue });
  }
  if (issues.length) throw new RequestValidationError(issues);
  return out;
}
