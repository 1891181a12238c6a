/**
 * Credit costs of every operation (spec "Credit cost"). `pages` is the page count of the document
 * (0 for non-paginated inputs, which count as one page); `website` means a URL rendered as a page.
 */

/** CREDIT_COST_TABLE is the human-readable table, used in the OpenAPI description and README. */
export const CREDIT_COST_TABLE: [operation: string, cost: string][] = [
  ["Screenshot", "1"],
  ["Markdown (GET and convert)", "1, plus 1 per minute of transcribed audio or video"],
  ["Thumbnail", "1"],
  ["Extract", "1 per page (minimum 3); 5 for a website"],
  ["Analyze", "2 per page (minimum 5); 10 for a website"],
  ["Cross-analyze", "5 per document plus 3 per page (minimum 10)"],
  ["Decide", "2 per page (minimum 5) for documents; 10 for a website; 5 for context only"],
  ["Diff", "1"],
  ["Audio or video transcription", "1 per minute (started minutes)"],
  ["Batches", "the sum of their items' costs"],
];

export interface DocumentSize {
  pages: number;
  website: boolean;
}

const pagesOf = (d: DocumentSize) => Math.max(1, d.pages);

export const costs = {
  screenshot: () => 1,
  thumbnail: () => 1,
  diff: () => 1,
  /** transcription charges every started minute of media */
  transcription: (seconds: number) => (seconds > 0 ? Math.ceil(seconds / 60) : 0),
  markdown: (transcribedSeconds = 0) => 1 + costs.transcription(transcribedSeconds),
  extract: (d: DocumentSize) => (d.website ? 5 : Math.max(3, pagesOf(d))),
  analyze: (d: DocumentSize) => (d.website ? 10 : Math.max(5, 2 * pagesOf(d))),
  cross: (docs: DocumentSize[]) => Math.max(10, 5 * docs.length + 3 * docs.reduce((n, d) => n + pagesOf(d), 0)),
  decide: (d: DocumentSize | null) => (d === null ? 5 : d.website ? 10 : Math.max(5, 2 * pagesOf(d))),
};

/** MINIMUM_COST is what an operation costs at the least: the amount held before work starts. */
export const MINIMUM_COST = {
  screenshot: 1,
  markdown: 1,
  thumbnail: 1,
  diff: 1,
  extract: 3,
  analyze: 5,
  cross: 10,
  decide: 5,
} as const;
