/**
 * regexMatches is the body of the agent's `regex_search` tool. It runs as a worker-pool job (see
 * src/pool/functions.ts) because a model-written pattern can backtrack for hours: the caller aborts the
 * job at a deadline and piscina terminates the thread, so a bad pattern costs seconds, not the process.
 *
 * JavaScriptCore also has a backtracking limit of its own: past it (about 1-1.5 s here) `exec`
 * quietly returns null, as if nothing matched. A search that silently misses is worse than one that
 * fails, so any single `exec` slower than SLOW_EXEC_MS ends the search with an error instead.
 */

/** SLOW_EXEC_MS: one exec of a sane pattern on one page takes microseconds; this long means runaway backtracking. */
const SLOW_EXEC_MS = 250;

export interface RegexPart {
  label: string;
  page: number;
  text: string;
}

export interface RegexArgs {
  pattern: string;
  /** flags: any of i, m, s, u (g is implied) */
  flags: string;
  parts: RegexPart[];
  maxMatches: number;
}

export interface RegexMatch {
  label: string;
  page: number;
  match: string;
  groups: string[];
  /** line: the whole line holding the match start, cut to 300 characters */
  line: string;
}

export type RegexOutcome = { ok: true; matches: RegexMatch[]; truncated: boolean } | { ok: false; error: string };

export function regexMatches(args: RegexArgs): RegexOutcome {
  let re: RegExp;
  try {
    re = new RegExp(args.pattern, `${args.flags.replace(/[^imsu]/g, "")}g`);
  } catch (error) {
    return { ok: false, error: `invalid pattern: ${error instanceof Error ? error.message : String(error)}` };
  }
  const matches: RegexMatch[] = [];
  for (const part of args.parts) {
    re.lastIndex = 0;
    for (;;) {
      const started = performance.now();
      const m = re.exec(part.text);
      if (performance.now() - started > SLOW_EXEC_MS) return { ok: false, error: `the pattern backtracked too much (over ${SLOW_EXEC_MS} ms on one page) and was stopped; use a simpler pattern (no nested quantifiers such as (a*)*)` };
      if (!m) break;
      if (m[0] === "") re.lastIndex++;
      if (matches.length >= args.maxMatches) return { ok: true, matches, truncated: true };
      matches.push({ label: part.label, page: part.page, match: m[0].slice(0, 300), groups: m.slice(1).map((g) => (g ?? "").slice(0, 200)), line: lineAt(part.text, m.index) });
    }
  }
  return { ok: true, matches, truncated: false };
}

function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf("\n", index - 1) + 1;
  const end = text.indexOf("\n", index);
  return text.slice(start, end < 0 ? text.length : end).trim().slice(0, 300);
}
