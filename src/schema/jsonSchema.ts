/**
 * Standard JSON Schema (a draft 2020-12 subset, what Firecrawl, OpenAI structured outputs and
 * LlamaExtract take) turned into the typed schema of the spec, so that every operation has one
 * internal form and answers the same either way (`schema_format` stays `typed`).
 *
 * Taken: an object root with `properties` and `required`; per property `type` (one of the typed
 * schema's types, or a pair with "null" as OpenAI's strict mode writes optional fields), `description`,
 * `enum`, `items`, nested objects. Annotations that change nothing here (`$schema`, `$id`, `title`,
 * `format`, `default`, `examples`, `additionalProperties`, ...) are accepted and dropped. Anything
 * else (`$ref`, `anyOf`, `pattern`, ...) is refused with the path inside the schema that holds it.
 */
import { AppError } from "../errors";
import { isPlainObject } from "../runtime/values";

const TYPES = ["string", "number", "integer", "boolean", "array", "object"];
/** IGNORED: annotations and constraints that do not change what is extracted */
const IGNORED = new Set(["$schema", "$id", "$comment", "title", "format", "default", "examples", "additionalProperties", "minItems", "maxItems", "minimum", "maximum", "minLength", "maxLength", "unevaluatedProperties", "propertyOrdering"]);
const TAKEN = new Set(["type", "description", "enum", "items", "properties", "required"]);

/** looksLikeJsonSchema: the root declares itself an object schema (`"type": "object"` or `$schema`), which no typed schema can. */
export function looksLikeJsonSchema(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && (value.type === "object" || typeof value.$schema === "string");
}

function refuse(field: string, at: string, detail: string): never {
  throw new AppError("invalid_schema", `${field} (JSON Schema) at ${at || "the root"}: ${detail}`);
}

/** typeOf reads `type`: a name, or [name, "null"] (nullable, i.e. not required). */
function typeOf(field: string, at: string, node: Record<string, unknown>): { type: string; nullable: boolean } {
  const raw = node.type;
  if (raw === undefined) refuse(field, at, `needs a 'type' (one of ${TYPES.join(", ")})`);
  const names = Array.isArray(raw) ? raw : [raw];
  const nonNull = names.filter((t) => t !== "null");
  if (nonNull.length !== 1 || typeof nonNull[0] !== "string" || !TYPES.includes(nonNull[0]) || names.some((t) => typeof t !== "string")) {
    refuse(field, at, `'type' must be one of ${TYPES.join(", ")} (or a pair of one of them with "null"), got ${JSON.stringify(raw)}`);
  }
  return { type: nonNull[0] as string, nullable: names.length > 1 };
}

/**
 * MAX_NESTING: the nesting of objects and items this converter follows. The typed schema takes 6 levels (SCHEMA_LIMITS)
 * and refuses more itself; past this bound (an object's members and an array's items each a level) the schema is refused
 * here, before a recursion as deep as the schema (20 000 levels ran the stack out: an internal error).
 */
const MAX_NESTING = 16;

function convertNode(field: string, at: string, node: unknown, required: boolean | undefined, depth: number): Record<string, unknown> {
  if (depth > MAX_NESTING) refuse(field, at, `nested more than ${MAX_NESTING} levels deep (extraction takes 6)`);
  if (!isPlainObject(node)) refuse(field, at, 'must be an object such as {"type": "string", "description": "..."}');
  for (const key of Object.keys(node)) {
    if (!TAKEN.has(key) && !IGNORED.has(key)) refuse(field, at, `'${key}' is not supported; use type, description, enum, items, properties and required`);
  }
  const { type, nullable } = typeOf(field, at, node);
  const out: Record<string, unknown> = { type };
  if (node.description !== undefined) out.description = node.description;
  if (required !== undefined) out.required = required && !nullable;
  if (node.enum !== undefined) out.enum = Array.isArray(node.enum) ? node.enum.filter((v) => v !== null) : node.enum;
  if (node.items !== undefined) out.items = convertNode(field, `${at}.items`, node.items, undefined, depth + 1);
  if (type === "object") out.properties = convertProperties(field, at, node, depth);
  else if (node.properties !== undefined) refuse(field, `${at}.properties`, `'properties' applies only to type object, not ${type}`);
  else if (node.required !== undefined) refuse(field, `${at}.required`, `'required' applies only to type object, not ${type}`);
  return out;
}

function convertProperties(field: string, at: string, node: Record<string, unknown>, depth: number): Record<string, unknown> {
  const properties = node.properties;
  if (!isPlainObject(properties)) refuse(field, `${at}${at ? "." : ""}properties`, "an object needs 'properties', a mapping of member names to schemas");
  const required = node.required ?? [];
  if (!Array.isArray(required) || required.some((r) => typeof r !== "string")) refuse(field, `${at}${at ? "." : ""}required`, "'required' must be an array of property names");
  for (const name of required as string[]) {
    if (!(name in properties)) refuse(field, `${at}${at ? "." : ""}required`, `'${name}' is required but not among the properties (${Object.keys(properties).join(", ") || "none"})`);
  }
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(properties)) {
    out[name] = convertNode(field, `${at}${at ? "." : ""}properties.${name}`, member, (required as string[]).includes(name), depth + 1);
  }
  return out;
}

/**
 * typedFromJsonSchema converts the JSON Schema root (an object schema) to the typed schema's shape;
 * the typed schema's own checks then run on the result.
 */
export function typedFromJsonSchema(root: Record<string, unknown>, field: string): Record<string, unknown> {
  if (root.type !== "object") refuse(field, "", `the root must be {"type": "object", "properties": {...}}, got type ${JSON.stringify(root.type)}`);
  for (const key of Object.keys(root)) {
    if (!TAKEN.has(key) && !IGNORED.has(key)) refuse(field, "", `'${key}' is not supported; use type, description, properties and required`);
  }
  return convertProperties(field, "", root, 0);
}
