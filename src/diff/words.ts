/**
 * Word-level diff inside a replaced block: both texts are cut into tokens (words, numbers written
 * with their separators such as "4,500" or "2024-03-01", and single punctuation marks), the token
 * sequences are diffed with Myers, and the result is grouped into runs: equal, delete, insert, and
 * replace (a deleted run directly followed by an inserted one). Each token keeps the whitespace
 * before it so that runs print as they were written.
 */
import { DELETE, EQUAL, INSERT, myersDiff } from "./myers";

/** Token: one word, number or punctuation mark and the whitespace written before it. */
export interface Token {
  text: string;
  space: string;
}

/** WordRun: one run of the word diff; equal/delete/insert carry `text`, replace carries `a` and `b`. */
export type WordRun =
  | { op: "equal"; text: string }
  | { op: "delete"; text: string }
  | { op: "insert"; text: string }
  | { op: "replace"; a: string; b: string };

/** TokenOp: the word diff at token level, what the renderers walk. */
export interface TokenOp {
  op: "equal" | "delete" | "insert";
  token: Token;
}

export interface WordDiff {
  tokens: TokenOp[];
  /** equalWords: word tokens (letters or digits) the two texts share, for the similarity score */
  equalWords: number;
  added: number;
  removed: number;
  changed: number;
}

/** MAX_WORD_EDITS: past this many token edits a block counts as rewritten (all deleted, all inserted). */
const MAX_WORD_EDITS = 3000;

const TOKEN = /(\s*)(\p{N}+(?:[.,:/\-'’]\p{N}+)*%?|[\p{L}\p{M}\p{N}_]+(?:['’\-][\p{L}\p{M}\p{N}_]+)*|\S)/gu;
const WORDLIKE = /[\p{L}\p{N}]/u;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(TOKEN)) tokens.push({ text: match[2]!, space: match[1]! });
  return tokens;
}

export function isWord(token: Token): boolean {
  return WORDLIKE.test(token.text);
}

/** WORD_TOKEN: TOKEN without the whitespace group and the punctuation branch, for counting alone. */
const WORD_TOKEN = /\p{N}+(?:[.,:/\-'’]\p{N}+)*%?|[\p{L}\p{M}\p{N}_]+(?:['’\-][\p{L}\p{M}\p{N}_]+)*/gu;

/**
 * countWords counts the word tokens of a text as tokenize + isWord would, without building the
 * tokens: every block of both documents is counted, so this is on the diff's hot path.
 */
export function countWords(text: string): number {
  let n = 0;
  WORD_TOKEN.lastIndex = 0;
  for (let match = WORD_TOKEN.exec(text); match; match = WORD_TOKEN.exec(text)) if (WORDLIKE.test(match[0])) n++;
  return n;
}

/** diffWords compares two texts token by token (see the header). */
export function diffWords(a: string, b: string): WordDiff {
  const ta = tokenize(a);
  const tb = tokenize(b);
  const ids = new Map<string, number>();
  const idOf = (t: Token) => {
    let id = ids.get(t.text);
    if (id === undefined) ids.set(t.text, (id = ids.size));
    return id;
  };
  const script = myersDiff(ta.map(idOf), tb.map(idOf), MAX_WORD_EDITS);
  const tokens: TokenOp[] = [];
  if (script) {
    for (let s = 0; s < script.ops.length; s++) {
      const op = script.ops[s];
      if (op === EQUAL) tokens.push({ op: "equal", token: tb[script.bi[s]!]! });
      else if (op === DELETE) tokens.push({ op: "delete", token: ta[script.ai[s]!]! });
      else if (op === INSERT) tokens.push({ op: "insert", token: tb[script.bi[s]!]! });
    }
  } else {
    for (const token of ta) tokens.push({ op: "delete", token });
    for (const token of tb) tokens.push({ op: "insert", token });
  }
  return { tokens, ...wordCounts(tokens) };
}

/**
 * wordCounts: words added, removed and changed. A deleted run followed by an inserted run is a
 * change of min(deleted, inserted) words; what is left over counts as added or removed.
 */
function wordCounts(tokens: TokenOp[]): Omit<WordDiff, "tokens"> {
  let equalWords = 0;
  let added = 0;
  let removed = 0;
  let changed = 0;
  let deleted = 0;
  let inserted = 0;
  const settle = () => {
    const both = Math.min(deleted, inserted);
    changed += both;
    removed += deleted - both;
    added += inserted - both;
    deleted = inserted = 0;
  };
  for (const { op, token } of tokens) {
    if (op === "equal") {
      settle();
      if (isWord(token)) equalWords++;
    } else if (isWord(token)) {
      if (op === "delete") deleted++;
      else inserted++;
    }
  }
  settle();
  return { equalWords, added, removed, changed };
}

/**
 * wordRuns groups token operations into runs for the JSON response: equal runs, and between them
 * one change run (delete, insert, or replace when it has both). The whitespace around a change
 * stays with the equal runs beside it, so a client rebuilds either side by joining its runs.
 */
export function wordRuns(tokens: TokenOp[]): WordRun[] {
  const runs: WordRun[] = [];
  let i = 0;
  while (i < tokens.length) {
    const equal = tokens[i]!.op === "equal";
    let end = i;
    while (end < tokens.length && (tokens[end]!.op === "equal") === equal) end++;
    if (equal) {
      const spaceAfter = end < tokens.length && tokens[end]!.token.space !== "" ? " " : "";
      runs.push({ op: "equal", text: textOf(tokens.slice(i, end), i > 0) + spaceAfter });
    } else {
      const a = textOf(tokens.slice(i, end).filter((t) => t.op === "delete"), false);
      const b = textOf(tokens.slice(i, end).filter((t) => t.op === "insert"), false);
      runs.push(a && b ? { op: "replace", a, b } : a ? { op: "delete", text: a } : { op: "insert", text: b });
    }
    i = end;
  }
  return runs;
}

/** textOf joins tokens with single spaces where the text had whitespace; `leading` keeps the first one's. */
export function textOf(tokens: TokenOp[], leading: boolean): string {
  let text = "";
  tokens.forEach(({ token }, n) => {
    if (token.space && (n > 0 || leading)) text += " ";
    text += token.text;
  });
  return text;
}
