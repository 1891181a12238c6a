/**
 * Extraction schemas as standard JSON Schema (issue 19): the object subset that Firecrawl, OpenAI
 * structured outputs and LlamaExtract take is converted to the spec's typed schema, so the answer
 * is the same either way; errors name the place inside the schema.
 */
import { describe, expect, test } from "bun:test";
import { api, form, type TestServer, withServer } from "./helpers/server";

let server: TestServer;
let key: string;

// no GROQ_API_KEY: extraction runs on the local engine, deterministic
withServer({ env: { GROQ_API_KEY: "" } }, (served) => ({ server, key } = served));

const INVOICE = "# Invoice 2024-117\n\nVendor: Acme Tools Ltd\n\nInvoice date: 2024-03-05\n\nCurrency: EUR\n\nTotal: 1,250.00\n";

const TYPED = {
  vendor: { type: "string", description: "the seller", required: true },
  total: { type: "number", description: "amount due", required: true },
  currency: { type: "string", enum: ["EUR", "USD"] },
  notes: { type: "array", items: { type: "string" } },
  buyer: { type: "object", properties: { name: { type: "string" } } },
};

const JSON_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "Invoice",
  type: "object",
  additionalProperties: false,
  properties: {
    vendor: { type: "string", description: "the seller" },
    total: { type: "number", description: "amount due" },
    currency: { type: ["string", "null"], enum: ["EUR", "USD", null] },
    notes: { type: "array", items: { type: "string" } },
    buyer: { type: "object", properties: { name: { type: "string" } }, additionalProperties: false },
  },
  required: ["vendor", "total"],
};

function extract(schema: unknown) {
  return api(server, key, "POST", "/api/v1/extract", form({ schema: JSON.stringify(schema), file: new File([INVOICE], "invoice.md") }));
}

/** stable drops what differs between two runs of the same request (timings, ids) */
function stable(body: any): any {
  const { processing_time_ms, request_id, ...rest } = body;
  return rest;
}

describe("JSON Schema in extraction", () => {
  test("a JSON Schema gets the same answer as the typed schema it says", async () => {
    const typed = await extract(TYPED);
    const standard = await extract(JSON_SCHEMA);
    expect(typed.status).toBe(200);
    expect(standard.status).toBe(200);
    expect(standard.body.schema_format).toBe("typed");
    expect(stable(standard.body)).toEqual(stable(typed.body));
    expect(standard.body.data.total).toBe(1250);
  });

  test.each([
    [{ type: "object", properties: { total: { anyOf: [{ type: "number" }] } } }, "at properties.total: 'anyOf' is not supported"],
    [{ type: "object", properties: { buyer: { type: "object", properties: { zip: { type: "postcode" } } } } }, "at properties.buyer.properties.zip: 'type' must be one of"],
    [{ type: "object", properties: { total: { type: "number" } }, required: ["totl"] }, "at required: 'totl' is required but not among the properties (total)"],
    [{ type: "object", properties: { lines: { type: "array", items: { $ref: "#/$defs/line" } } } }, "at properties.lines.items: '$ref' is not supported"],
    [{ type: "object" }, "at properties: an object needs 'properties'"],
  ])("%j is refused with invalid_schema naming the place: %s", async (schema, where) => {
    const r = await extract(schema);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("invalid_schema");
    expect(r.body.detail).toContain(where);
  });

  test("a JSON Schema nested 20 000 deep is refused with invalid_schema, not an internal error (the conversion recursed as deep as the schema)", async () => {
    // written as text: JSON.stringify itself cannot write an object this deep
    const schema = `${'{"type":"object","properties":{"a":'.repeat(20_000)}{"type":"string"}${"}}".repeat(20_000)}`;
    const r = await api(server, key, "POST", "/api/v1/extract", form({ schema, file: new File([INVOICE], "invoice.md") }));
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("invalid_schema");
    expect(r.body.detail).toContain("nested more than 16 levels deep");
  });

  test("a typed schema still gets its own messages", async () => {
    const r = await extract({ total: { type: "money" } });
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain("field 'total': type must be one of");
  });
});
