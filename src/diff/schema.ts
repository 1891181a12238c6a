import { Type } from "@sinclair/typebox";
import { FileField, StringEnum, Fields } from "../http/fields";
import { commonFields, taskFields } from "../documents/fields";

export const DiffBody = Fields({
  file_a: FileField({ description: "the first (older) document; or url_a" }),
  file_b: FileField({ description: "the second (newer) document; or url_b" }),
  url_a: commonFields.url(),
  url_b: commonFields.url(),
  url_headers: commonFields.urlHeaders(),
  render: commonFields.render(),
  granularity: StringEnum(["block", "word"] as const, { default: "word", description: "block: aligned blocks only; word: also word-level operations inside replaced blocks" }),
  format: StringEnum(["json", "markdown", "html"] as const, { default: "json", description: "json, markdown (~~deleted~~ **inserted**) or html (coloured)" }),
  annotate: Type.Boolean({ default: false, description: "AI summary and per-change significance (needs the AI provider)" }),
  ...taskFields(),
});

const WordRun = Type.Object(
  {
    op: StringEnum(["equal", "delete", "insert", "replace"] as const),
    text: Type.Optional(Type.String({ description: "equal, delete, insert: the words of the run (equal runs keep the spaces around a change)" })),
    a: Type.Optional(Type.String({ description: "replace: the old words" })),
    b: Type.Optional(Type.String({ description: "replace: the new words" })),
  },
  { title: "DiffWordRun", description: "One run of the word-level diff of a replaced block; joining the equal, delete and replace.a texts gives the old block, the equal, insert and replace.b texts the new one." },
);

const DiffBlockSchema = Type.Object(
  {
    op: StringEnum(["equal", "insert", "delete", "replace", "move"] as const, {
      description:
        "equal: the same text in both (formatting-only differences such as heading level, bold or list marker do not count); insert: only in B; delete: only in A; replace: a block of A edited into a block of B; move: the same text at another place (listed once, at its place in B)",
    }),
    kind: StringEnum(["heading", "paragraph", "list_item", "table_row", "code", "quote"] as const, { description: "each table row is its own block; the kind is B's for equal, replace and move" }),
    a_index: Type.Optional(Type.Integer({ description: "0-based index of the block in A's block list (absent for insert)" })),
    b_index: Type.Optional(Type.Integer({ description: "0-based index of the block in B's block list (absent for delete)" })),
    a: Type.Optional(Type.String({ description: "A's text without markdown markers; table rows as '| cell | cell |'" })),
    b: Type.Optional(Type.String({ description: "B's text" })),
    level: Type.Optional(Type.Integer({ description: "headings: 1 to 6; nested list items: depth from 1" })),
    a_cells: Type.Optional(Type.Array(Type.String(), { description: "table rows: A's cells" })),
    b_cells: Type.Optional(Type.Array(Type.String(), { description: "table rows: B's cells" })),
    words: Type.Optional(Type.Array(WordRun, { description: "replace at granularity=word: the word-level operations" })),
    significance: Type.Optional(StringEnum(["material", "wording", "structural"] as const, { description: "annotate=true, changed blocks: material (amount, date, deadline, party, obligation, scope), wording (same meaning) or structural (moved)" })),
    significance_reason: Type.Optional(Type.String({ description: "annotate=true: why, in one sentence" })),
  },
  { title: "DiffBlock" },
);

const DiffDocument = Type.Object(
  {
    filename: Type.String({ description: "original file name, or the URL after redirects" }),
    content_type: Type.String(),
    total_pages: Type.Integer({ description: "0 for non-paginated inputs" }),
    text_length: Type.Integer({ description: "characters of the converted markdown" }),
    extraction_method: Type.String({ description: "as in the markdown result: text, ocr, browser, ..." }),
    warnings: Type.Array(Type.String(), { description: "what the conversion skipped or degraded" }),
  },
  { title: "DiffDocument" },
);

const count = (description: string) => Type.Integer({ minimum: 0, description });

export const DiffResult = Type.Object(
  {
    success: Type.Literal(true),
    similarity: Type.Number({ minimum: 0, maximum: 1, description: "share of words in common (equal and moved blocks, equal words of replaced blocks) over all words of both; 1 only when nothing changed" }),
    identical: Type.Boolean({ description: "true when every block is equal" }),
    granularity: StringEnum(["block", "word"] as const),
    stats: Type.Object({
      blocks_a: count("blocks in A"),
      blocks_b: count("blocks in B"),
      words_a: count("words in A (tokens with a letter or digit)"),
      words_b: count("words in B"),
      blocks: Type.Object({ unchanged: count("equal blocks"), added: count("insert"), removed: count("delete"), changed: count("replace"), moved: count("move") }),
      words: Type.Object({
        added: count("words inserted (whole inserted blocks included)"),
        removed: count("words deleted (whole deleted blocks included)"),
        changed: count("words replaced by other words inside replaced blocks"),
      }),
    }),
    document_a: DiffDocument,
    document_b: DiffDocument,
    blocks: Type.Array(DiffBlockSchema, { description: "the aligned blocks in B's order, deleted blocks where they stood in A" }),
    annotations: Type.Optional(
      Type.Object({
        summary: Type.String({ description: "what changed, naming changed amounts, dates and parties" }),
        model: Type.String({ description: "the provider's model id ('' when there was nothing to annotate)" }),
        changes_annotated: count("changed blocks the model judged (long diffs are cut to the text budget)"),
        changes_total: count("changed blocks"),
      }),
    ),
    markdown: Type.Optional(Type.String({ description: "format=markdown with Accept: application/json: the rendered diff" })),
    html: Type.Optional(Type.String({ description: "format=html with Accept: application/json: the rendered page" })),
    credits_used: Type.Integer({ description: "1" }),
  },
  { title: "DiffResult" },
);
