/**
 * The typed schema (src/schema/typed.ts) as the provider sees it, and back.
 *
 * extractionJsonSchema builds the strict JSON schema sent as `response_format` {type: "json_schema"}:
 * every top-level field becomes {value, quote, confidence} so the model returns, per field, its typed
 * value, the verbatim source text it read it from and its own confidence. Strict mode requires every
 * key to be listed in `required` and `additionalProperties: false`, so "absent" is expressed as null.
 *
 * coerceToSchema is the way back: the provider's values are never trusted as typed; each is coerced
 * to the field's type ("$1,234.50" -> 1234.5, "Yes" -> true, "PAID" -> "paid" for enum ["paid"]) or
 * becomes null when it cannot be.
 */
import type { FieldDefinition, TypedSchema } from "../schema/typed";
import { isPlainObject } from "../runtime/values";

export type JsonSchema = Record<string, unknown>;

/** EXTRACTION_SCHEMA_NAME: the `json_schema.name` of the response format. */
export const EXTRACTION_SCHEMA_NAME = "extraction";

/** extractionJsonSchema is the strict response schema: one {value, quote, confidence} object per field. */
export function extractionJsonSchema(schema: TypedSchema): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, def] of Object.entries(schema)) properties[name] = fieldEnvelope(name, def);
  return strictObject(properties);
}

/** fieldEnvelope wraps one field's value with the verbatim quote and the self-reported confidence. */
function fieldEnvelope(name: string, def: FieldDefinition): JsonSchema {
  const what = def.description ? `${name}: ${def.description}` : name;
  return {
    ...strictObject({
      value: valueSchema(def),
      quote: { type: ["string", "null"], description: "the exact text copied verbatim from the document that states the value; null when value is null" },
      confidence: { type: "number", description: "your confidence from 0.0 to 1.0 that value is correct" },
    }),
    description: def.required ? `${what} (required)` : what,
  };
}

/**
 * valueSchema is the JSON schema of a field's value. Values are nullable (null = not in the
 * document) unless `nullable` is false, as in decide, whose every answer must be a real value.
 */
export function valueSchema(def: FieldDefinition, nullable = true): JsonSchema {
  const described = def.description ? { description: def.description } : {};
  const typeOf = (t: string) => (nullable ? [t, "null"] : t);
  switch (def.type) {
    case "array":
      return { type: typeOf("array"), items: valueSchema(def.items!, nullable), ...described };
    case "object": {
      const members: Record<string, JsonSchema> = {};
      for (const [name, member] of Object.entries(def.properties ?? {})) members[name] = valueSchema(member, nullable);
      return { ...strictObject(members), type: typeOf("object"), ...described };
    }
    default:
      if (def.enum) return { type: typeOf(def.type), enum: nullable ? [...def.enum, null] : [...def.enum], ...described };
      return { type: typeOf(def.type), ...described };
  }
}

/** strictObject: all members required, nothing else allowed (what strict structured outputs demand). */
export function strictObject(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}

/**
 * coerceToSchema makes a provider value conform to `field`: numbers from text ("$1,234.50", "(12)",
 * "1.234,50 EUR", "15%"), booleans from yes/no words, enum members matched case-insensitively (the
 * schema's spelling is returned), arrays (a lone value becomes a one-element array; invalid elements
 * are dropped), objects (every member coerced, missing ones null). Anything that cannot conform -> null.
 */
export function coerceToSchema(value: unknown, field: FieldDefinition): unknown {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case "string":
      return enumMember(stringFrom(value), field);
    case "number":
      return enumMember(numberFrom(value), field);
    case "integer": {
      const n = numberFrom(value);
      return enumMember(n !== null && Number.isInteger(n) ? n : null, field);
    }
    case "boolean":
      return enumMember(booleanFrom(value), field);
    case "array":
      return arrayFrom(value, field.items!);
    case "object":
      return objectFrom(value, field.properties ?? {});
  }
}

function stringFrom(value: unknown): string | null {
  if (typeof value === "string") return value.trim() === "" ? null : value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return null;
}

/** enumMember returns the schema's own spelling of `value`, or null when the field's enum lacks it. */
function enumMember(value: string | number | boolean | null, field: FieldDefinition): string | number | boolean | null {
  if (value === null || !field.enum) return value;
  if (field.enum.includes(value)) return value;
  if (typeof value !== "string") return null;
  const wanted = enumKey(value);
  const match = field.enum.find((member) => typeof member === "string" && enumKey(member) === wanted);
  return (match as string | undefined) ?? null;
}

/** enumKey compares enum spellings without case, spaces, hyphens or underscores ("Net 30" = "net_30"). */
function enumKey(text: string): string {
  return text.toLowerCase().replace(/[\s_\-]+/g, "");
}

function numberFrom(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string") return numberFromText(value);
  return null;
}

/** NUMBER_TOKEN: a run of digits with thousands/decimal separators (',', '.', apostrophe, thin spaces). */
const NUMBER_TOKEN = /\d(?:[\d,.'\u00a0\u202f]*\d)?/g;

/**
 * numberFromText reads one number written the way documents write it: currency symbols or codes
 * around it, thousands separators, a decimal comma, a minus sign or accounting parentheses, a
 * trailing %. Text holding more than one number (or none) is not a number: null.
 */
export function numberFromText(text: string): number | null {
  const tokens = [...text.matchAll(NUMBER_TOKEN)];
  if (tokens.length !== 1) return null;
  const token = tokens[0]!;
  const before = text.slice(0, token.index);
  const magnitude = separatedNumber(token[0]);
  if (magnitude === null) return null;
  const negative = /(?:^|[^\w])[-\u2212][^\w]{0,3}$/.test(before.trimEnd()) || (/\(\s*\S{0,3}\s*$/.test(before) && /\)/.test(text.slice(token.index! + token[0].length)));
  return negative ? -magnitude : magnitude;
}

/**
 * separatedNumber resolves separators: with both ',' and '.', the last one is the decimal point;
 * a single ',' followed by exactly three digits groups thousands, otherwise it is a decimal comma;
 * repeated separators of one kind group thousands.
 */
export function separatedNumber(token: string): number | null {
  let t = token.replace(/['\u00a0\u202f]/g, "");
  const commas = (t.match(/,/g) ?? []).length;
  const dots = (t.match(/\./g) ?? []).length;
  if (commas && dots) {
    const decimal = t.lastIndexOf(",") > t.lastIndexOf(".") ? "," : ".";
    const group = decimal === "," ? "." : ",";
    if ((t.match(new RegExp(`\\${decimal}`, "g")) ?? []).length > 1) return null;
    t = t.split(group).join("").replace(decimal, ".");
  } else if (commas) {
    t = commas === 1 && !/^\d{1,3},\d{3}$/.test(t) ? t.replace(",", ".") : t.replace(/,/g, "");
  } else if (dots > 1) {
    t = t.replace(/\./g, "");
  }
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

const TRUE_WORDS = new Set(["true", "yes", "y", "1", "on", "checked", "x", "✓", "✔", "ja", "oui", "si", "sí"]);
const FALSE_WORDS = new Set(["false", "no", "n", "0", "off", "unchecked", "nein", "non"]);

function booleanFrom(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value === 1 ? true : value === 0 ? false : null;
  if (typeof value !== "string") return null;
  const word = value.trim().toLowerCase().replace(/[.!]+$/, "");
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return null;
}

function arrayFrom(value: unknown, items: FieldDefinition): unknown[] | null {
  const list = Array.isArray(value) ? value : parsedJson(value, Array.isArray) ?? [value];
  const out = list.map((element) => coerceToSchema(element, items)).filter((element) => element !== null);
  return out;
}

function objectFrom(value: unknown, members: Record<string, FieldDefinition>): Record<string, unknown> | null {
  const source = isPlainObject(value) ? value : parsedJson(value, isPlainObject);
  if (!source) return null;
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(members)) out[name] = coerceToSchema(source[name], def);
  return out;
}

/** parsedJson reads a value the model sent as JSON text instead of JSON ("[1, 2]"), when it has the wanted shape. */
function parsedJson<T>(value: unknown, shape: (v: unknown) => v is T): T | undefined {
  if (typeof value !== "string" || !/^\s*[[{]/.test(value)) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return shape(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
