/**
 * compareMarkdown is the diff without I/O: two markdown texts in, aligned blocks, word-level runs
 * inside replaced blocks, statistics and a similarity score out. The HTTP route, the task runner
 * and the benchmark call it through diffDocuments (service.ts) or directly.
 *
 *   [split blocks, align blocks, diff words of replaced blocks, count]
 *
 * Similarity is the share of words the documents have in common: words of equal and moved blocks
 * and the equal words inside replaced blocks, over all words of both documents (1 = the same text,
 * 0 = nothing in common). Formatting-only differences do not count (see blocks.ts).
 */
import { splitBlocks, type Block, type BlockKind } from "./blocks";
import { alignBlocks, type AlignOp } from "./align";
import { countWords, diffWords, wordRuns, type WordDiff, type WordRun } from "./words";

export type Granularity = "block" | "word";

/** Entry: one aligned block with the blocks themselves, as the renderers need them. */
export interface Entry {
  op: AlignOp;
  aIndex?: number;
  bIndex?: number;
  a?: Block;
  b?: Block;
  /** words: the word diff of a replaced block */
  words?: WordDiff;
}

export interface DiffStats {
  blocks_a: number;
  blocks_b: number;
  words_a: number;
  words_b: number;
  blocks: { unchanged: number; added: number; removed: number; changed: number; moved: number };
  words: { added: number; removed: number; changed: number };
}

/** Comparison: the whole result of comparing two texts. */
export interface Comparison {
  entries: Entry[];
  stats: DiffStats;
  /** similarity: 0..1, rounded to 4 decimals; 1 only when nothing changed */
  similarity: number;
}

/** DiffBlock: one aligned block as the JSON response carries it (documented in schema.ts). */
export interface DiffBlock {
  op: AlignOp;
  kind: BlockKind;
  a_index?: number;
  b_index?: number;
  a?: string;
  b?: string;
  level?: number;
  a_cells?: string[];
  b_cells?: string[];
  words?: WordRun[];
}

export function compareMarkdown(markdownA: string, markdownB: string): Comparison {
  const a = splitBlocks(markdownA);
  const b = splitBlocks(markdownB);
  const entries: Entry[] = alignBlocks(a, b).map((step) => ({
    op: step.op,
    ...(step.a !== undefined ? { aIndex: step.a, a: a[step.a] } : {}),
    ...(step.b !== undefined ? { bIndex: step.b, b: b[step.b] } : {}),
    ...(step.op === "replace" ? { words: diffWords(a[step.a!]!.text, b[step.b!]!.text) } : {}),
  }));
  return { entries, ...statistics(entries, a, b) };
}

function statistics(entries: Entry[], a: Block[], b: Block[]): { stats: DiffStats; similarity: number } {
  const wordsA = a.map((block) => countWords(block.text));
  const wordsB = b.map((block) => countWords(block.text));
  const stats: DiffStats = {
    blocks_a: a.length,
    blocks_b: b.length,
    words_a: sum(wordsA),
    words_b: sum(wordsB),
    blocks: { unchanged: 0, added: 0, removed: 0, changed: 0, moved: 0 },
    words: { added: 0, removed: 0, changed: 0 },
  };
  let shared = 0;
  for (const entry of entries) {
    switch (entry.op) {
      case "equal":
        stats.blocks.unchanged++;
        shared += wordsA[entry.aIndex!]! + wordsB[entry.bIndex!]!;
        break;
      case "move":
        stats.blocks.moved++;
        shared += wordsA[entry.aIndex!]! + wordsB[entry.bIndex!]!;
        break;
      case "insert":
        stats.blocks.added++;
        stats.words.added += wordsB[entry.bIndex!]!;
        break;
      case "delete":
        stats.blocks.removed++;
        stats.words.removed += wordsA[entry.aIndex!]!;
        break;
      case "replace": {
        const words = entry.words!;
        stats.blocks.changed++;
        stats.words.added += words.added;
        stats.words.removed += words.removed;
        stats.words.changed += words.changed;
        shared += 2 * words.equalWords;
        break;
      }
    }
  }
  return { stats, similarity: similarityOf(shared, stats) };
}

function similarityOf(shared: number, stats: DiffStats): number {
  const changed = stats.blocks.added + stats.blocks.removed + stats.blocks.changed + stats.blocks.moved > 0;
  const total = stats.words_a + stats.words_b;
  if (total === 0) return changed ? 0 : 1;
  const rounded = Math.round((shared / total) * 10_000) / 10_000;
  // 1 is reserved for "nothing changed": a change too small to show at 4 decimals still shows
  return changed && rounded >= 1 ? 0.9999 : rounded;
}

const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0);

/** responseBlocks: the entries as the JSON response's blocks[]; word runs only at word granularity. */
export function responseBlocks(comparison: Comparison, granularity: Granularity): DiffBlock[] {
  return comparison.entries.map((entry) => {
    const kind = (entry.b ?? entry.a)!.kind;
    const level = (entry.b ?? entry.a)!.level;
    return {
      op: entry.op,
      kind,
      ...(entry.aIndex !== undefined ? { a_index: entry.aIndex } : {}),
      ...(entry.bIndex !== undefined ? { b_index: entry.bIndex } : {}),
      ...(entry.a ? { a: entry.a.text } : {}),
      ...(entry.b ? { b: entry.b.text } : {}),
      ...(kind === "heading" || (kind === "list_item" && level > 0) ? { level } : {}),
      ...(entry.a?.cells ? { a_cells: entry.a.cells } : {}),
      ...(entry.b?.cells ? { b_cells: entry.b.cells } : {}),
      ...(entry.words && granularity === "word" ? { words: wordRuns(entry.words.tokens) } : {}),
    };
  });
}

/** hasChanges: anything but equal blocks. */
export function hasChanges(comparison: Comparison): boolean {
  return comparison.entries.some((entry) => entry.op !== "equal");
}
