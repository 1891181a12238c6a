/**
 * PRICES: the credit cost of every operation (spec "Credit cost"), declared once. Routes take their
 * minimum (held before work starts) and their cost of the finished work from here, the OpenAPI
 * description and the README's cost table print `rule` (test/prices.test.ts checks the README).
 * A page is a page the work actually read (pagesRead), never a count the document states.
 */

/**
 * DocumentSize is what a document's price depends on. `pages` are pages the work actually read
 * (pagesRead), never a count a document states about itself.
 */
export interface DocumentSize {
  pages: number;
  website: boolean;
}

/** BILLED_PAGE_CHARS: for formats read without pages (DOCX, RTF, ODT, slides, sheets, HTML, text), this much text is a page */
export const BILLED_PAGE_CHARS = 3000;

/**
 * pagesRead is the page count a document is billed by: the pages the converter read one by one (PDF
 * pages, scanned pages), or else the text it produced in pages of BILLED_PAGE_CHARS; at least 1.
 * Never a metadata field: a one-paragraph RTF whose DOCX says <Pages>99</Pages> is one page.
 */
export function pagesRead(pageReports: number | undefined, textChars: number): number {
  if (pageReports && pageReports > 0) return pageReports;
  return Math.max(1, Math.ceil(textChars / BILLED_PAGE_CHARS));
}

const pagesOf = (d: DocumentSize) => Math.max(1, d.pages);
/** transcription charges every started minute of media */
const transcription = (seconds: number) => (seconds > 0 ? Math.ceil(seconds / 60) : 0);

interface Price<A extends unknown[]> {
  /** label: the operation as the cost table names it */
  label: string;
  /** rule: the price in words, as the README, the OpenAPI description and route descriptions show it */
  rule: string;
  /** minimum: what the operation costs at the least, held before the work starts (402 when not covered) */
  minimum: number;
  /** cost: what the finished work costs */
  cost: (...args: A) => number;
}

const price = <A extends unknown[]>(p: Price<A>) => p;

export const PRICES = {
  screenshot: price({ label: "screenshot", rule: "1", minimum: 1, cost: () => 1 }),
  thumbnail: price({ label: "thumbnail", rule: "1", minimum: 1, cost: () => 1 }),
  diff: price({ label: "diff", rule: "1", minimum: 1, cost: () => 1 }),
  markdown: price({ label: "markdown (GET and convert)", rule: "1, plus 1 per started minute of transcribed audio or video", minimum: 1, cost: (transcribedSeconds: number = 0) => 1 + transcription(transcribedSeconds) }),
  extract: price({ label: "extract", rule: "1 per page (minimum 3); 5 for a website", minimum: 3, cost: (d: DocumentSize) => (d.website ? 5 : Math.max(3, pagesOf(d))) }),
  analyze: price({ label: "analyze", rule: "2 per page (minimum 5); 10 for a website", minimum: 5, cost: (d: DocumentSize) => (d.website ? 10 : Math.max(5, 2 * pagesOf(d))) }),
  cross: price({
    label: "cross-analyze",
    rule: "5 per document plus 3 per page (minimum 10)",
    minimum: 10,
    cost: (docs: DocumentSize[]) => Math.max(10, 5 * docs.length + 3 * docs.reduce((n, d) => n + pagesOf(d), 0)),
  }),
  decide: price({
    label: "decide",
    rule: "2 per page (minimum 5); 10 for a website; 5 for context only",
    minimum: 5,
    cost: (d: DocumentSize | null) => (d === null ? 5 : d.website ? 10 : Math.max(5, 2 * pagesOf(d))),
  }),
} as const;

export type PricedOperation = keyof typeof PRICES;

/** costs: the cost of finished work per operation (PRICES[op].cost) */
export const costs = {
  screenshot: PRICES.screenshot.cost,
  thumbnail: PRICES.thumbnail.cost,
  diff: PRICES.diff.cost,
  transcription,
  markdown: PRICES.markdown.cost,
  extract: PRICES.extract.cost,
  analyze: PRICES.analyze.cost,
  cross: PRICES.cross.cost,
  decide: PRICES.decide.cost,
};

/** MINIMUM_COST is what an operation costs at the least: the amount held before work starts. */
export const MINIMUM_COST = Object.fromEntries(Object.entries(PRICES).map(([op, p]) => [op, p.minimum])) as { readonly [op in PricedOperation]: number };

/** priceText is an operation's price for its route description, e.g. "Credits: 1 per page (minimum 3); 5 for a website." */
export function priceText(operation: PricedOperation): string {
  return `Credits: ${PRICES[operation].rule}.`;
}

/** CREDIT_COST_TABLE: the cost table of the README and the OpenAPI description, one row per operation, then batches. */
export const CREDIT_COST_TABLE: [operation: string, cost: string][] = [...Object.values(PRICES).map((p): [string, string] => [p.label, p.rule]), ["batches", "the sum of their items' costs"]];
