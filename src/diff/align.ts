/**
 * alignBlocks lines up the blocks of two documents. Steps:
 *
 *   [intern keys, anchor, fill gaps, find moves, pair replacements, order]
 *
 * - intern keys: each block's comparison key becomes a small integer, so blocks compare by number.
 * - anchor: common prefix and suffix, then blocks whose key occurs exactly once in each side are
 *   anchors, and the longest run of anchors in the same order on both sides (patience sorting,
 *   O(k log k)) splits the problem into gaps, recursively. Two versions of a long document thus
 *   never need an O(n·m) comparison.
 * - fill gaps: a gap without anchors is diffed with Myers (bounded; past the bound the gap counts
 *   as all deleted and all inserted).
 * - find moves: a deleted block whose key equals an inserted block's is one block that moved.
 * - pair replacements: inside each run of changes, deleted and inserted blocks of compatible kinds
 *   are paired in order by word similarity (a small dynamic programme per run); a pair is an edit
 *   of one block (replace). One deleted and one inserted block of the same kind always pair.
 * - order: the result follows the new document, with deleted blocks where they stood; a moved
 *   block appears once, at its new place.
 */
import type { Block, BlockKind } from "./blocks";
import { DELETE, EQUAL, myersDiff } from "./myers";
import { tokenize } from "./words";

export type AlignOp = "equal" | "insert" | "delete" | "replace" | "move";

/** Aligned: one entry of the alignment; `a`/`b` are block indexes in the old/new document. */
export interface Aligned {
  op: AlignOp;
  a?: number;
  b?: number;
}

/** MAX_GAP_EDITS: Myers' bound inside one gap between anchors, in block edits. */
const MAX_GAP_EDITS = 2000;
/** PAIR_MIN_SIMILARITY: word similarity (Dice) from which a deleted and an inserted block are one edited block. */
const PAIR_MIN_SIMILARITY = 0.5;
/** MAX_PAIRING_CELLS: largest deleted x inserted run paired by the dynamic programme; larger runs pair by position. */
const MAX_PAIRING_CELLS = 40_000;

export function alignBlocks(a: Block[], b: Block[]): Aligned[] {
  const ids = new Map<string, number>();
  const idOf = (block: Block) => {
    let id = ids.get(block.key);
    if (id === undefined) ids.set(block.key, (id = ids.size));
    return id;
  };
  const idsA = Int32Array.from(a, idOf);
  const idsB = Int32Array.from(b, idOf);
  const steps: Aligned[] = [];
  alignRange(idsA, idsB, 0, idsA.length, 0, idsB.length, steps);
  const moves = findMoves(steps, idsA, idsB);
  try {
    return orderHunks(steps, moves, a, b);
  } finally {
    bags.clear();
  }
}

// Anchors and gaps ---------------------------------------------------------------------------------

function alignRange(a: Int32Array, b: Int32Array, a0: number, a1: number, b0: number, b1: number, out: Aligned[]): void {
  let prefix = 0;
  while (a0 + prefix < a1 && b0 + prefix < b1 && a[a0 + prefix] === b[b0 + prefix]) prefix++;
  let suffix = 0;
  while (a1 - suffix > a0 + prefix && b1 - suffix > b0 + prefix && a[a1 - 1 - suffix] === b[b1 - 1 - suffix]) suffix++;
  for (let p = 0; p < prefix; p++) out.push({ op: "equal", a: a0 + p, b: b0 + p });
  alignMiddle(a, b, a0 + prefix, a1 - suffix, b0 + prefix, b1 - suffix, out);
  for (let s = suffix; s > 0; s--) out.push({ op: "equal", a: a1 - s, b: b1 - s });
}

function alignMiddle(a: Int32Array, b: Int32Array, a0: number, a1: number, b0: number, b1: number, out: Aligned[]): void {
  if (a0 === a1 || b0 === b1) {
    for (let i = a0; i < a1; i++) out.push({ op: "delete", a: i });
    for (let j = b0; j < b1; j++) out.push({ op: "insert", b: j });
    return;
  }
  const anchors = uniqueAnchors(a, b, a0, a1, b0, b1);
  if (anchors.length === 0) return fillGap(a, b, a0, a1, b0, b1, out);
  let pa = a0;
  let pb = b0;
  for (const [ia, ib] of anchors) {
    alignRange(a, b, pa, ia, pb, ib, out);
    out.push({ op: "equal", a: ia, b: ib });
    pa = ia + 1;
    pb = ib + 1;
  }
  alignRange(a, b, pa, a1, pb, b1, out);
}

/**
 * uniqueAnchors: keys found exactly once in each range, as [indexA, indexB] pairs, reduced to the
 * longest chain increasing on both sides (longest increasing subsequence of the B positions).
 */
function uniqueAnchors(a: Int32Array, b: Int32Array, a0: number, a1: number, b0: number, b1: number): Array<[number, number]> {
  const seen = new Map<number, { inA: number; inB: number; posA: number; posB: number }>();
  for (let i = a0; i < a1; i++) {
    const entry = seen.get(a[i]!);
    if (entry) entry.inA++;
    else seen.set(a[i]!, { inA: 1, inB: 0, posA: i, posB: -1 });
  }
  for (let j = b0; j < b1; j++) {
    const entry = seen.get(b[j]!);
    if (!entry) continue;
    entry.inB++;
    entry.posB = j;
  }
  const candidates: Array<[number, number]> = [];
  for (const entry of seen.values()) if (entry.inA === 1 && entry.inB === 1) candidates.push([entry.posA, entry.posB]);
  candidates.sort((x, y) => x[0] - y[0]);
  return longestIncreasing(candidates);
}

/** longestIncreasing: patience sorting on the B positions, with back links to rebuild the chain. */
function longestIncreasing(pairs: Array<[number, number]>): Array<[number, number]> {
  const tails: number[] = [];
  const back = new Int32Array(pairs.length).fill(-1);
  for (let i = 0; i < pairs.length; i++) {
    const value = pairs[i]![1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) back[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const chain: Array<[number, number]> = [];
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = back[i]!) chain.push(pairs[i]!);
  return chain.reverse();
}

function fillGap(a: Int32Array, b: Int32Array, a0: number, a1: number, b0: number, b1: number, out: Aligned[]): void {
  const script = myersDiff(a.subarray(a0, a1), b.subarray(b0, b1), MAX_GAP_EDITS);
  if (!script) {
    for (let i = a0; i < a1; i++) out.push({ op: "delete", a: i });
    for (let j = b0; j < b1; j++) out.push({ op: "insert", b: j });
    return;
  }
  for (let s = 0; s < script.ops.length; s++) {
    const op = script.ops[s];
    if (op === EQUAL) out.push({ op: "equal", a: a0 + script.ai[s]!, b: b0 + script.bi[s]! });
    else if (op === DELETE) out.push({ op: "delete", a: a0 + script.ai[s]! });
    else out.push({ op: "insert", b: b0 + script.bi[s]! });
  }
}

// Moves ----------------------------------------------------------------------------------------------

/** findMoves pairs inserted blocks with deleted blocks of the same key, first come first served: B index -> A index. */
function findMoves(steps: Aligned[], idsA: Int32Array, idsB: Int32Array): Map<number, number> {
  const deleted = new Map<number, number[]>();
  for (const step of steps) {
    if (step.op !== "delete") continue;
    const list = deleted.get(idsA[step.a!]!);
    if (list) list.push(step.a!);
    else deleted.set(idsA[step.a!]!, [step.a!]);
  }
  const moves = new Map<number, number>();
  if (deleted.size === 0) return moves;
  for (const step of steps) {
    if (step.op !== "insert") continue;
    const list = deleted.get(idsB[step.b!]!);
    if (list?.length) moves.set(step.b!, list.shift()!);
  }
  return moves;
}

// Replacements and order -----------------------------------------------------------------------------

/** orderHunks rewrites every run of deletes and inserts as moves, replacements, deletes and inserts. */
function orderHunks(steps: Aligned[], moves: Map<number, number>, a: Block[], b: Block[]): Aligned[] {
  const movedFrom = new Set(moves.values());
  const out: Aligned[] = [];
  let i = 0;
  while (i < steps.length) {
    if (steps[i]!.op === "equal") {
      out.push(steps[i++]!);
      continue;
    }
    const deletes: number[] = [];
    const inserts: number[] = [];
    for (; i < steps.length && steps[i]!.op !== "equal"; i++) {
      const step = steps[i]!;
      if (step.op === "delete") {
        if (!movedFrom.has(step.a!)) deletes.push(step.a!);
      } else inserts.push(step.b!);
    }
    emitHunk(deletes, inserts, moves, a, b, out);
  }
  return out;
}

/** emitHunk writes one run of changes in the new document's order, deletions where they stood. */
function emitHunk(deletes: number[], inserts: number[], moves: Map<number, number>, a: Block[], b: Block[], out: Aligned[]): void {
  const fresh = inserts.filter((j) => !moves.has(j));
  const pairs = pairBlocks(deletes, fresh, a, b);
  let d = 0;
  let n = 0;
  const emitInsertsBefore = (limit: number) => {
    for (; n < inserts.length && inserts[n]! < limit; n++) {
      const j = inserts[n]!;
      const from = moves.get(j);
      if (from !== undefined) out.push({ op: "move", a: from, b: j });
      else if (!pairs.byInsert.has(j)) out.push({ op: "insert", b: j });
    }
  };
  for (const [ia, jb] of pairs.list) {
    for (; d < deletes.length && deletes[d]! < ia; d++) out.push({ op: "delete", a: deletes[d]! });
    emitInsertsBefore(jb);
    out.push({ op: "replace", a: ia, b: jb });
    d++;
    n++;
  }
  for (; d < deletes.length; d++) out.push({ op: "delete", a: deletes[d]! });
  emitInsertsBefore(Infinity);
}

/** pairBlocks chooses which deleted block became which inserted block (see the header). */
function pairBlocks(deletes: number[], inserts: number[], a: Block[], b: Block[]): { list: Array<[number, number]>; byInsert: Set<number> } {
  const list: Array<[number, number]> = [];
  if (deletes.length && inserts.length) {
    if (deletes.length === 1 && inserts.length === 1) {
      if (a[deletes[0]!]!.kind === b[inserts[0]!]!.kind) list.push([deletes[0]!, inserts[0]!]);
      else if (pairScore(a[deletes[0]!]!, b[inserts[0]!]!) > 0) list.push([deletes[0]!, inserts[0]!]);
    } else if (deletes.length * inserts.length <= MAX_PAIRING_CELLS) {
      list.push(...bestPairing(deletes, inserts, a, b));
    } else {
      for (let k = 0; k < Math.min(deletes.length, inserts.length); k++) {
        if (pairScore(a[deletes[k]!]!, b[inserts[k]!]!) > 0) list.push([deletes[k]!, inserts[k]!]);
      }
    }
  }
  return { list, byInsert: new Set(list.map(([, j]) => j)) };
}

/** bestPairing: the order-keeping pairing with the largest total similarity (an alignment DP). */
function bestPairing(deletes: number[], inserts: number[], a: Block[], b: Block[]): Array<[number, number]> {
  const n = deletes.length;
  const m = inserts.length;
  const width = m + 1;
  const best = new Float64Array((n + 1) * width);
  const score = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) score[i * m + j] = pairScore(a[deletes[i]!]!, b[inserts[j]!]!);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const s = score[(i - 1) * m + (j - 1)]!;
      const diagonal = s > 0 ? best[(i - 1) * width + (j - 1)]! + s : -1;
      best[i * width + j] = Math.max(best[(i - 1) * width + j]!, best[i * width + (j - 1)]!, diagonal);
    }
  }
  const pairs: Array<[number, number]> = [];
  for (let i = n, j = m; i > 0 && j > 0; ) {
    const here = best[i * width + j]!;
    if (here === best[(i - 1) * width + j]) i--;
    else if (here === best[i * width + (j - 1)]) j--;
    else {
      pairs.push([deletes[i - 1]!, inserts[j - 1]!]);
      i--;
      j--;
    }
  }
  return pairs.reverse();
}

const TEXT_KINDS = new Set<BlockKind>(["heading", "paragraph", "list_item", "quote"]);

/** pairScore: the word similarity of two blocks when they may pair (compatible kinds, similar enough), else 0. */
function pairScore(x: Block, y: Block): number {
  const compatible = x.kind === y.kind || (TEXT_KINDS.has(x.kind) && TEXT_KINDS.has(y.kind));
  if (!compatible) return 0;
  const similarity = diceSimilarity(x.key, y.key);
  return similarity >= PAIR_MIN_SIMILARITY ? similarity : 0;
}

/** diceSimilarity: 2·|shared tokens| / (|tokens x| + |tokens y|), tokens counted with repetition. */
export function diceSimilarity(x: string, y: string): number {
  return diceOfBags(bagOf(x), bagOf(y));
}

interface Bag {
  counts: Map<string, number>;
  size: number;
}

/**
 * bags: token counts per comparison key while one alignment pairs blocks (a run of n x m blocks
 * would otherwise tokenize n·m times); alignBlocks empties it when it returns.
 */
const bags = new Map<string, Bag>();

function bagOf(key: string): Bag {
  let bag = bags.get(key);
  if (bag) return bag;
  const counts = new Map<string, number>();
  const tokens = tokenize(key);
  for (const t of tokens) counts.set(t.text, (counts.get(t.text) ?? 0) + 1);
  bag = { counts, size: tokens.length };
  bags.set(key, bag);
  return bag;
}

function diceOfBags(x: Bag, y: Bag): number {
  if (x.size + y.size === 0) return 1;
  const [small, large] = x.counts.size <= y.counts.size ? [x, y] : [y, x];
  let shared = 0;
  for (const [token, count] of small.counts) shared += Math.min(count, large.counts.get(token) ?? 0);
  return (2 * shared) / (x.size + y.size);
}
