/**
 * myersDiff: the shortest edit script between two integer sequences (E. Myers, "An O(ND) Difference
 * Algorithm and Its Variations", 1986), greedy forward search with the frontier of every step kept
 * for the walk back. Time O((N+M)·D), memory O(D²): D is the number of edits, small when two
 * versions of a document are alike. Past `maxEdits` it gives up (undefined) and the caller decides
 * what a wholesale change means, so two unrelated inputs never cost quadratic time or memory.
 */

/** EditOp: 0 = equal (a[i] = b[j]), 1 = delete a[i], 2 = insert b[j]. */
export type EditOp = 0 | 1 | 2;
export const EQUAL = 0;
export const DELETE = 1;
export const INSERT = 2;

/** EditScript lists the steps in order: ops[s] with the positions ai[s] (in a) and bi[s] (in b). */
export interface EditScript {
  ops: EditOp[];
  ai: number[];
  bi: number[];
}

export function myersDiff(a: ArrayLike<number>, b: ArrayLike<number>, maxEdits: number): EditScript | undefined {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(n + m, Math.max(0, maxEdits));
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= limit; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(v.slice(offset - d, offset + d + 1));
        return walkBack(trace, n, m);
      }
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  return undefined;
}

/** walkBack follows the kept frontiers from (n, m) to (0, 0) and returns the script in forward order. */
function walkBack(trace: Int32Array[], n: number, m: number): EditScript {
  const ops: EditOp[] = [];
  const ai: number[] = [];
  const bi: number[] = [];
  const push = (op: EditOp, i: number, j: number) => {
    ops.push(op);
    ai.push(i);
    bi.push(j);
  };
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const previous = trace[d - 1]!;
    const at = (k: number) => previous[k + d - 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const startX = down ? prevX : prevX + 1;
    while (x > startX) {
      x--;
      y--;
      push(EQUAL, x, y);
    }
    if (down) {
      y--;
      push(INSERT, x, y);
    } else {
      x--;
      push(DELETE, x, y);
    }
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    push(EQUAL, x, y);
  }
  ops.reverse();
  ai.reverse();
  bi.reverse();
  return { ops, ai, bi };
}
