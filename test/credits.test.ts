import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Store } from "../src/store";
import { openSqliteBackend, type SqliteBackend } from "../src/store/sqliteBackend";
import { createApiKey } from "../src/security/apiKeys";
import { Ledger } from "../src/credits/ledger";
import { MINIMUM_COST, costs, pagesRead } from "../src/credits/costs";
import { metered } from "../src/credits/meter";
import { AppError } from "../src/errors";
import { ROOT, api, form, startServer, tempDir } from "./helpers/server";

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((f) => f()));

function freshStore(): { store: Store; backend: SqliteBackend; dir: string } {
  const dir = tempDir();
  const backend = openSqliteBackend(dir);
  cleanup.push(() => {
    void backend.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store: backend.store, backend, dir };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (e) {
    return e instanceof AppError ? e.code : String(e);
  }
}

describe("credit ledger", () => {
  test("a free key has 100 credits this month and 402 past them", async () => {
    const { backend } = freshStore();
    const { info } = await createApiKey(backend.keys, "free");
    const ledger = new Ledger(backend);
    expect(await ledger.balance(info)).toMatchObject({ allowance: 100, used: 0, remaining: 100 });
    await ledger.charge(info, 98, { operation: "extract" });
    expect(await codeOf(ledger.charge(info, 3, { operation: "extract" }))).toBe("insufficient_credits");
    expect((await ledger.balance(info)).remaining).toBe(2);
  });

  test("100 parallel charges against a balance that covers 50: at most 50 succeed, never below zero", async () => {
    const { backend } = freshStore();
    const { info } = await createApiKey(backend.keys, "free");
    const ledger = new Ledger(backend);
    await ledger.charge(info, 50, { operation: "setup" });
    const results = await Promise.all(
      Array.from({ length: 100 }, async () => {
        const hold = await ledger.hold(info, 1).catch((e) => e);
        if (hold instanceof Error) return (hold as AppError).code;
        await Bun.sleep(Math.random() * 5);
        await ledger.settle(hold, 1, { operation: "screenshot" });
        return "ok";
      }),
    );
    expect(results.filter((r) => r === "ok")).toHaveLength(50);
    expect(results.filter((r) => r === "insufficient_credits")).toHaveLength(50);
    expect(await ledger.balance(info)).toMatchObject({ used: 100, held: 0, remaining: 0 });
  });

  test("charges from 4 processes at once against one store never overspend", async () => {
    const { store, backend, dir } = freshStore();
    const { info } = await createApiKey(backend.keys, "free");
    await new Ledger(backend).charge(info, 50, { operation: "setup" });
    const script = `
      import { openSqliteBackend } from "${ROOT}/src/store/sqliteBackend";
      import { Ledger } from "${ROOT}/src/credits/ledger";
      const ledger = new Ledger(openSqliteBackend(process.argv[2]));
      let ok = 0;
      for (let i = 0; i < 25; i++) {
        try { await ledger.charge({ id: process.argv[3], plan: "free" }, 1, { operation: "race" }); ok++; } catch {}
      }
      console.log(ok);
    `;
    const file = `${dir}/racer.ts`;
    await Bun.write(file, script);
    const procs = Array.from({ length: 4 }, () => Bun.spawn([process.execPath, file, dir, info.id], { stdout: "pipe" }));
    const counts = await Promise.all(procs.map(async (p) => Number((await new Response(p.stdout).text()).trim())));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(50);
    const balance = await new Ledger(backend).balance(info);
    expect(balance.used).toBe(100);
    expect(balance.remaining).toBe(0);
  });

  test("settle charges the actual cost; release charges nothing", async () => {
    const { backend } = freshStore();
    const { info } = await createApiKey(backend.keys, "free");
    const ledger = new Ledger(backend);
    const a = await ledger.hold(info, 3);
    expect(await ledger.balance(info)).toMatchObject({ held: 3, remaining: 97 });
    await ledger.settle(a, 12, { operation: "extract" });
    const b = await ledger.hold(info, 5);
    await ledger.release(b);
    expect(await ledger.balance(info)).toMatchObject({ used: 12, held: 0, remaining: 88 });
  });

  test("a settle that costs more than the balance covers charges nothing and says 402", async () => {
    const { backend } = freshStore();
    const { info } = await createApiKey(backend.keys, "free");
    const ledger = new Ledger(backend);
    await ledger.charge(info, 95, { operation: "setup" });
    const hold = await ledger.hold(info, 3);
    expect(await codeOf(ledger.settle(hold, 40, { operation: "extract" }))).toBe("insufficient_credits");
    expect(await ledger.balance(info)).toMatchObject({ used: 95, held: 0, remaining: 5 });
  });

  test("the free allowance is per calendar month with no carry-over; grants count for their month", async () => {
    const { backend } = freshStore();
    const { info } = await createApiKey(backend.keys, "free");
    let now = new Date("2026-10-31T23:59:00Z");
    const ledger = new Ledger(backend, () => now);
    await ledger.charge(info, 10, { operation: "x" });
    await ledger.grant(info.id, 25);
    expect(await ledger.balance(info)).toMatchObject({ period: "2026-10", granted: 25, used: 10, remaining: 115 });
    now = new Date("2026-11-01T00:00:30Z");
    expect(await ledger.balance(info)).toMatchObject({ period: "2026-11", granted: 0, used: 0, remaining: 100 });
  });

  test("an expired hold (its process died) stops counting", async () => {
    const { backend } = freshStore();
    const { info } = await createApiKey(backend.keys, "free");
    let now = new Date("2026-11-10T10:00:00Z");
    const ledger = new Ledger(backend, () => now);
    await ledger.hold(info, 40, 60_000);
    expect((await ledger.balance(info)).remaining).toBe(60);
    now = new Date("2026-11-10T10:01:01Z");
    expect((await ledger.balance(info)).remaining).toBe(100);
    expect(await ledger.housekeeping()).toBe(1);
  });

  test("a balance read here sees a grant and a charge committed by another connection from the next turn on", async () => {
    const { backend, dir } = freshStore();
    const { info } = await createApiKey(backend.keys, "free");
    const ledger = new Ledger(backend);
    expect((await ledger.balance(info)).remaining).toBe(100);
    expect((await ledger.balance(info)).remaining).toBe(100); // served from the cache: nothing changed
    const other = openSqliteBackend(dir); // as the CLI or another instance would
    cleanup.unshift(() => void other.close());
    await new Ledger(other).grant(info.id, 7);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await ledger.balance(info)).toMatchObject({ granted: 7, remaining: 107 });
    await new Ledger(other).charge(info, 30, { operation: "x" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await ledger.balance(info)).toMatchObject({ used: 30, remaining: 77 });
  });

  test("pro and enterprise are metered without a cap", async () => {
    const { backend } = freshStore();
    const ledger = new Ledger(backend);
    for (const plan of ["pro", "enterprise"] as const) {
      const { info } = await createApiKey(backend.keys, plan);
      await ledger.charge(info, 5000, { operation: "analyze" });
      expect(await ledger.balance(info)).toMatchObject({ allowance: null, used: 5000, remaining: null });
    }
  });

  test("the 402 detail says what is needed, what remains and how to get more", async () => {
    const { backend } = freshStore();
    const { info } = await createApiKey(backend.keys, "free");
    const ledger = new Ledger(backend);
    await ledger.charge(info, 99, { operation: "x" });
    const error = await ledger.charge(info, 3, { operation: "extract" }).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(402);
    expect(error.detail).toContain("needs 3 credits");
    expect(error.detail).toContain("1 remain");
    expect(error.detail).toContain(`credits grant ${info.id}`);
  });
});

describe("credit costs (spec table)", () => {
  test.each([
    ["extract 1 page", costs.extract({ pages: 1, website: false }), 3],
    ["extract 12 pages", costs.extract({ pages: 12, website: false }), 12],
    ["extract website", costs.extract({ pages: 0, website: true }), 5],
    ["analyze 2 pages", costs.analyze({ pages: 2, website: false }), 5],
    ["analyze 7 pages", costs.analyze({ pages: 7, website: false }), 14],
    ["analyze website", costs.analyze({ pages: 0, website: true }), 10],
    ["cross 2 docs of 1 page", costs.cross([{ pages: 1, website: false }, { pages: 1, website: false }]), 16],
    ["cross minimum", costs.cross([{ pages: 0, website: false }]), 10],
    ["decide context only", costs.decide(null), 5],
    ["decide 4 pages", costs.decide({ pages: 4, website: false }), 8],
    ["decide website", costs.decide({ pages: 0, website: true }), 10],
    ["markdown with 61 s of audio", costs.markdown(61), 3],
    ["screenshot", costs.screenshot(), 1],
    ["diff", costs.diff(), 1],
  ])("%s", (_, actual, expected) => expect(actual).toBe(expected));
});

describe("metered", () => {

  test("charges what successful work reports and nothing for failed work", async () => {
    const { store, backend } = freshStore();
    const { info } = await createApiKey(backend.keys, "free");
    const ledger = new Ledger(backend);
    const ok = await metered(ledger, info, "extract", 3, "req-1", async () => ({ result: "done", credits: 7 }));
    expect(ok).toEqual({ result: "done", creditsUsed: 7 });
    const failed = await metered(ledger, info, "extract", 3, "req-2", async () => {
      throw new AppError("invalid_document", "unreadable");
    }).catch((e) => e);
    expect(failed.code).toBe("invalid_document");
    expect(await ledger.balance(info)).toMatchObject({ used: 7, held: 0, remaining: 93 });
    const rows = store.db.query<{ operation: string; request_id: string; amount: number }, []>("SELECT operation, request_id, amount FROM credit_ledger WHERE kind = 'charge'").all();
    expect(rows).toEqual([{ operation: "extract", request_id: "req-1", amount: 7 }]);
  });

  test("refuses before the work starts when the minimum is not covered", async () => {
    const { backend } = freshStore();
    const { info } = await createApiKey(backend.keys, "free");
    const ledger = new Ledger(backend);
    await ledger.charge(info, 99, { operation: "x" });
    let ran = false;
    const e = await metered(ledger, info, "analyze", 5, "r", async () => {
      ran = true;
      return { result: null, credits: 5 };
    }).catch((err) => err);
    expect(e.code).toBe("insufficient_credits");
    expect(ran).toBe(false);
  });
});

test("the running totals always equal the sums of the ledger", async () => {
  const { store, backend } = freshStore();
  const ledger = new Ledger(backend);
  const a = (await createApiKey(backend.keys, "free")).info;
  const b = (await createApiKey(backend.keys, "pro")).info;
  for (let i = 1; i <= 20; i++) {
    await ledger.charge(i % 2 ? a : b, i, { operation: "x" });
    if (i % 5 === 0) await ledger.grant(a.id, i);
  }
  const fromLedger = store.db
    .query<{ key_id: string; granted: number; used: number }, []>(
      "SELECT key_id, SUM(CASE WHEN kind='grant' THEN amount ELSE 0 END) AS granted, SUM(CASE WHEN kind='charge' THEN amount ELSE 0 END) AS used FROM credit_ledger GROUP BY key_id ORDER BY key_id",
    )
    .all();
  const totals = store.db.query<{ key_id: string; granted: number; used: number }, []>("SELECT key_id, granted, used FROM credit_totals ORDER BY key_id").all();
  expect(totals).toEqual(fromLedger);
  expect(await ledger.balance(a)).toMatchObject({ granted: 50, used: 100, remaining: 50 });
});

test("the amount held before work starts is the least the operation can cost", () => {
  const onePage = { pages: 1, website: false };
  expect({ ...MINIMUM_COST } as Record<string, number>).toEqual({
    screenshot: costs.screenshot(),
    markdown: costs.markdown(0),
    thumbnail: costs.thumbnail(),
    diff: costs.diff(),
    extract: costs.extract(onePage),
    analyze: costs.analyze(onePage),
    cross: costs.cross([onePage]),
    decide: costs.decide(onePage),
  });
});

describe("billing by pages actually read", () => {
  const SCHEMA = JSON.stringify({ total: { type: "number", description: "total amount due", required: true } });
  /** test.rtf (MarkItDown's sample: a heading and one sentence, written by Word) with its sentence replaced by an invoice total */
  const invoiceRtf = () =>
    new File([readFileSync(join(ROOT, "test/fixtures/test.rtf"), "latin1").replace("It is included to test if the MarkItDown sample plugin can correctly convert RTF files.", "Total: 42.50 EUR")], "invoice.rtf", {
      type: "application/rtf",
    });

  test("a one-paragraph RTF is one page (LibreOffice's layout, not the 99 its RTF import made up) and is billed by the text read", async () => {
    const server = await startServer();
    try {
      const { key } = await server.key("enterprise");
      const converted = await api(server, key, "POST", "/api/v1/markdown/convert", form({ file: invoiceRtf() }));
      expect(converted.status).toBe(200);
      expect(converted.body.total_pages).toBe(1);
      const r = await api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, file: invoiceRtf() }));
      expect(r.status).toBe(200);
      expect(r.body.data.total).toBe(42.5);
      const expected = costs.extract({ pages: pagesRead(undefined, converted.body.text_length), website: false });
      expect(expected).toBeLessThan(10);
      expect(r.body.credits_used).toBe(expected);
      const charged = await server.sql<{ operation: string; amount: number }>("SELECT operation, amount FROM credit_ledger WHERE kind = 'charge' ORDER BY id");
      expect(charged).toEqual([
        { operation: "markdown", amount: 1 },
        { operation: "extract", amount: expected },
      ]);
    } finally {
      await server.stop();
    }
  }, 60_000);

  test("pagesRead: pages the converter read, else the text in pages of 3,000 characters, at least 1", () => {
    expect(pagesRead(4, 100)).toBe(4);
    expect(pagesRead(undefined, 0)).toBe(1);
    expect(pagesRead(undefined, 3000)).toBe(1);
    expect(pagesRead(undefined, 9001)).toBe(4);
    expect(pagesRead(0, 6500)).toBe(3);
  });
});
