/**
 * Typed schema (spec "Typed schema"): a JSON object whose keys are output field names and whose
 * values are field definitions {type, description, required, enum, items, properties}.
 * parseTypedSchema turns the form field's JSON text into a checked TypedSchema, or throws a 400
 * `invalid_schema` whose detail names the field path and the fix. A standard JSON Schema (an object
 * schema, see jsonSchema.ts) is accepted too and converted to this form first.
 */
import { AppError } from "../errors";
import { isPlainObject } from "../runtime/values";
import { looksLikeJsonSchema, typedFromJsonSchema } from "./jsonSchema";

export const FIELD_TYPES = ["string", "number", "integer", "boolean", "array", "object"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface FieldDefinition {
  type: FieldType;
  description?: string;
  required?: boolean;
  enum?: unknown[];
  items?: FieldDefinition;
  properties?: Record<string, FieldDefinition>;
}

export type TypedSchema = Record<string, FieldDefinition>;

const ALLOWED_KEYS = new Set(["type", "description", "required", "enum", "items", "properties"]);

/** SCHEMA_LIMITS: extract and analyze accept up to 100 fields in all (nested included) and 6 levels. */
export const SCHEMA_LIMITS = { maxTotalFields: 100, maxDepth: 6, maxNameLength: 128 } as const;

export interface ParseSchemaOptions {
  /** maxTopLevelFields: 0 = only the overall limit (cross-analyze and decide take 10) */
  maxTopLevelFields?: number;
  /** the form field's name, for messages */
  field?: string;
}

function invalid(detail: string): never {
  throw new AppError("invalid_schema", detail);
}

function enumValueMatches(type: FieldType, v: unknown): boolean {
  switch (type) {
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "integer":
      return Number.isInteger(v);
    case "boolean":
      return typeof v === "boolean";
    default:
      return false;
  }
}

function checkDefinition(path: string, def: unknown, depth: number, counter: { n: number }, field: string): FieldDefinition {
  const at = `${field}: field '${path}'`;
  counter.n++;
  if (counter.n > SCHEMA_LIMITS.maxTotalFields) invalid(`${field}: more than ${SCHEMA_LIMITS.maxTotalFields} fields in all; split the request`);
  if (depth > SCHEMA_LIMITS.maxDepth) invalid(`${at} is nested more than ${SCHEMA_LIMITS.maxDepth} levels deep`);
  if (!isPlainObject(def)) invalid(`${at} must be an object such as {"type": "string", "description": "..."}`);
  for (const key of Object.keys(def)) {
    if (!ALLOWED_KEYS.has(key)) invalid(`${at} has unknown property '${key}'; allowed: ${[...ALLOWED_KEYS].join(", ")}`);
  }
  const type = def.type;
  if (type === undefined) invalid(`${at} needs a 'type' (one of ${FIELD_TYPES.join(", ")})`);
  if (typeof type !== "string" || !(FIELD_TYPES as readonly string[]).includes(type))
    invalid(`${at}: type must be one of ${FIELD_TYPES.join(", ")}, got ${JSON.stringify(type)}`);
  const out: FieldDefinition = { type: type as FieldType };
  if (def.description !== undefined) {
    if (typeof def.description !== "string") invalid(`${at}: description must be a string`);
    out.description = def.description;
  }
  if (def.required !== undefined) {
    if (typeof def.required !== "boolean") invalid(`${at}: required must be true or false, got ${JSON.stringify(def.required)}`);
    out.required = def.required;
  }
  if (def.enum !== undefined) {
    if (!Array.isArray(def.enum) || def.enum.length === 0) invalid(`${at}: enum must be a non-empty array of allowed values`);
    if (!["string", "number", "integer", "boolean"].includes(out.type)) invalid(`${at}: enum applies to string, number, integer and boolean fields, not ${out.type}`);
    const bad = def.enum.find((v) => !enumValueMatches(out.type, v));
    if (bad !== undefined) invalid(`${at}: enum value ${JSON.stringify(bad)} is not a ${out.type}`);
    out.enum = [...def.enum];
  }
  if (out.type === "array") {
    if (def.items === undefined) invalid(`${at}: an array needs 'items', the definition of its elements, e.g. {"type": "string"}`);
    out.items = checkDefinition(`${path}[]`, def.items, depth + 1, counter, field);
  } else if (def.items !== undefined) invalid(`${at}: 'items' applies only to arrays`);
  if (out.type === "object") {
    if (def.properties === undefined) invalid(`${at}: an object needs 'properties', a mapping of member names to definitions`);
    out.properties = checkMembers(path, def.properties, depth + 1, counter, field);
  } else if (def.properties !== undefined) invalid(`${at}: 'properties' applies only to objects`);
  return out;
}

function checkMembers(parent: string, members: unknown, depth: number, counter: { n: number }, field: string): Record<string, FieldDefinition> {
  const where = parent ? `field '${parent}': properties` : "the schema";
  if (!isPlainObject(members)) invalid(`${field}: ${where} must be a JSON object mapping field names to definitions`);
  const names = Object.keys(members);
  if (names.length === 0) invalid(`${field}: ${where} has no fields; add at least one, e.g. {"total": {"type": "number"}}`);
  const out: Record<string, FieldDefinition> = {};
  for (const name of names) {
    if (name.trim() === "" || name.length > SCHEMA_LIMITS.maxNameLength) invalid(`${field}: field names must be 1 to ${SCHEMA_LIMITS.maxNameLength} characters, got ${JSON.stringify(name)}`);
    out[name] = checkDefinition(parent ? `${parent}.${name}` : name, members[name], depth, counter, field);
  }
  return out;
}

/** parseTypedSchema accepts the JSON text of a form field (or an already parsed object), as a typed schema or a JSON Schema. */
export function parseTypedSchema(input: unknown, options: ParseSchemaOptions = {}): TypedSchema {
  const field = options.field ?? "schema";
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (error) {
      invalid(`${field}: not valid JSON (${(error as Error).message}); send a JSON object such as {"total": {"type": "number", "required": true}}`);
    }
  }
  if (looksLikeJsonSchema(value)) value = typedFromJsonSchema(value, field);
  const schema = checkMembers("", value, 1, { n: 0 }, field);
  const max = options.maxTopLevelFields ?? 0;
  if (max > 0 && Object.keys(schema).length > max) invalid(`${field}: at most ${max} fields are allowed here, got ${Object.keys(schema).length}`);
  return schema;
}
