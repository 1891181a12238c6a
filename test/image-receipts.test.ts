/**
 * Real receipt scans (two SROIE receipts, test/fixtures/sroie with their licence) uploaded to the
 * real server: the OCR text holds the receipt's company name and total as the set's key gives
 * them, and the page reports tesseract's confidence as ocr_quality.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { form, type TestServer, withServer } from "./helpers/server";

const SROIE = join(import.meta.dir, "fixtures", "sroie");
let server: TestServer;
let key: string;

withServer({ plan: "enterprise" }, (served) => ({ server, key } = served));

test.each(["receipt_thermal_150dpi", "receipt_small_on_a4_scan"])("%s: the OCR holds the company and the total, with ocr_quality", async (name) => {
  const expected = JSON.parse(readFileSync(join(SROIE, `${name}.json`), "utf8")) as { company: string; total: string };
  const r = await fetch(`${server.url}/api/v1/markdown/convert`, {
    method: "POST",
    body: form({ file: new File([readFileSync(join(SROIE, `${name}.jpg`))], `${name}.jpg`, { type: "image/jpeg" }) }),
    headers: { "X-API-Key": key },
  });
  const body = (await r.json()) as any;
  expect({ status: r.status, error: body.error, detail: body.detail }).toEqual({ status: 200, error: undefined, detail: undefined });
  expect(body.extraction_method).toBe("ocr");
  const text = body.markdown.toUpperCase().replace(/[ \t]+/g, " ");
  expect(text).toContain(expected.company);
  expect(text).toMatch(new RegExp(`(^|[^0-9.])${expected.total.replace(".", "\\.")}($|[^0-9])`, "m"));
  expect(body.pages).toHaveLength(1);
  expect(body.pages[0].method).toBe("ocr");
  expect(body.pages[0].ocr_quality).toBeGreaterThan(0.3);
  expect(body.pages[0].ocr_quality).toBeLessThanOrEqual(1);
});
