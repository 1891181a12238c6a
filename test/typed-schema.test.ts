import { describe, expect, test } from "bun:test";
import { parseTypedSchema } from "../src/schema/typed";
import { AppError } from "../src/errors";

function detailOf(input: unknown, opts = {}): string {
  try {
    parseTypedSchema(input, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe("invalid_schema");
    expect((e as AppError).status).toBe(400);
    return (e as AppError).detail;
  }
  throw new Error("expected the schema to be refused");
}

describe("typed schema", () => {
  test("a full schema with every property parses", () => {
    const schema = parseTypedSchema(
      JSON.stringify({
        vendor: { type: "string", description: "seller name", required: true },
        total: { type: "number" },
        paid: { type: "boolean" },
        currency: { type: "string", enum: ["EUR", "USD"] },
        lines: { type: "array", items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer" } } } },
      }),
    );
    expect(schema.vendor).toEqual({ type: "string", description: "seller name", required: true });
    expect(schema.lines!.items!.properties!.qty!.type).toBe("integer");
  });

  test.each([
    [{ total: { type: "money" } }, "field 'total': type must be one of string, number, integer, boolean, array, object"],
    [{ total: { description: "x" } }, "field 'total' needs a 'type'"],
    [{ total: { type: "number", required: "yes" } }, "field 'total': required must be true or false"],
    [{ lines: { type: "array" } }, "field 'lines': an array needs 'items'"],
    [{ addr: { type: "object" } }, "field 'addr': an object needs 'properties'"],
    [{ addr: { type: "object", properties: { zip: { type: "postcode" } } } }, "field 'addr.zip': type must be one of"],
    [{ lines: { type: "array", items: { type: "object", properties: { qty: { type: 3 } } } } }, "field 'lines[].qty'"],
    [{ c: { type: "string", enum: [] } }, "enum must be a non-empty array"],
    [{ c: { type: "integer", enum: [1, "two"] } }, 'enum value "two" is not a integer'],
    [{ c: { type: "string", requried: true } }, "unknown property 'requried'"],
    [{ c: { type: "string", items: { type: "string" } } }, "'items' applies only to arrays"],
    [{}, "has no fields"],
    [[{ type: "string" }], "must be a JSON object"],
    ["{not json", "not valid JSON"],
  ])("%j is refused: %s", (input, message) => {
    expect(detailOf(input)).toContain(message);
  });

  test("cross-analyze and decide take at most 10 fields", () => {
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}`, { type: "string" }]));
    expect(detailOf(eleven, { maxTopLevelFields: 10 })).toContain("at most 10 fields");
    expect(Object.keys(parseTypedSchema(eleven))).toHaveLength(11);
  });

  test("very large or deep schemas are refused", () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { type: "string" }]));
    expect(detailOf(many)).toContain("more than 100 fields");
    let deep: any = { type: "string" };
    for (let i = 0; i < 8; i++) deep = { type: "object", properties: { x: deep } };
    expect(detailOf({ root: deep })).toContain("nested more than");
  });
});
