/**
 * Ruling lines of a PDF page and the table grids they draw: pure functions, no pdf.js.
 *
 *   rulesFromOperators: pdf.js's operator list (constructPath ops, stroked or filled, under the
 *                       current transform) -> horizontal and vertical rules in page coordinates
 *                       (origin top left, like the text items): stroked lines and rectangle edges,
 *                       and filled rectangles thin enough to be a rule
 *   ruledGrids:         rules -> merged collinear segments -> groups of rules that meet -> grids
 *                       (the x of each vertical rule, the y of each horizontal one, and which
 *                       rule segments are present, for cells that span where one is missing)
 *   ruleDividers:       rules -> the stretches of vertical rules that no horizontal rule crosses, with
 *                       the rows ruled up to each from either side (pdfReadingOrder.ts columnDividers weighs them with
 *                       the text beside them: two parts of a form side by side, two columns)
 *
 * pdfRuledTables.ts places the page's text in a grid's cells (`gridTable`).
 */

/** Rule is one axis-aligned line segment: horizontal when y1 === y2 (then x1 < x2), vertical when x1 === x2 (then y1 < y2). */
export interface Rule {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** RuledGrid: the rules of one table: column edges xs and row edges ys (ascending), and the rule segments to test where a cell ends. */
export interface RuledGrid {
  xs: number[];
  ys: number[];
  horizontal: Rule[];
  vertical: Rule[];
}

/** pdf.js OPS codes this module reads (pdf.js 5: src/shared/util.js OPS and DrawOPS). */
const OP = { save: 10, restore: 11, transform: 12, constructPath: 91 } as const;
const STROKES = new Set([20, 21, 24, 25, 26, 27]); // stroke, closeStroke, fillStroke, eoFillStroke, closeFillStroke, closeEOFillStroke
const FILLS = new Set([22, 23, 24, 25, 26, 27]); // fill, eoFill and the fill-and-stroke ops
const DRAW = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const;

/** RULE_THICKNESS: a filled rectangle thinner than this (points) is a rule. */
const RULE_THICKNESS = 3;
/** MIN_RULE: a rule shorter than this (points) is a tick or a glyph's stroke, not a table's. */
const MIN_RULE = 4;
/** SNAP: rule coordinates closer than this (points) are the same edge. */
const SNAP = 2;
/** MAX_OPS: a page drawing more path ops than this is a chart or a drawing, read no further for rules. */
const MAX_PATHS = 20000;
/** MAX_RULE_PAIRS: a page whose horizontal x vertical rules exceed this is a drawing (a hatching, a chart's grid): no grid or divider is read from it, which bounds the pairwise work */
const MAX_RULE_PAIRS = 250_000;

type Matrix = [number, number, number, number, number, number];

function multiply(m1: Matrix, m2: Matrix): Matrix {
  return [
    m1[0] * m2[0] + m1[2] * m2[1],
    m1[1] * m2[0] + m1[3] * m2[1],
    m1[0] * m2[2] + m1[2] * m2[3],
    m1[1] * m2[2] + m1[3] * m2[3],
    m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
    m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
  ];
}

/**
 * rulesFromOperators reads the axis-aligned lines a page draws from pdf.js's operator list;
 * `viewport` is the page viewport's transform (PDF space to top-left page coordinates).
 */
export function rulesFromOperators(fnArray: ArrayLike<number>, argsArray: ArrayLike<unknown>, viewport: number[]): Rule[] {
  const rules: Rule[] = [];
  const stack: Matrix[] = [];
  let ctm = viewport.slice(0, 6) as Matrix;
  let paths = 0;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i]!;
    if (fn === OP.save) stack.push(ctm);
    else if (fn === OP.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OP.transform) ctm = multiply(ctm, argsArray[i] as Matrix);
    else if (fn === OP.constructPath) {
      if (++paths > MAX_PATHS) return [];
      const [op, data] = argsArray[i] as [number, Array<ArrayLike<number> | null>];
      const stroked = STROKES.has(op);
      const filled = FILLS.has(op);
      const buffer = data?.[0];
      if ((stroked || filled) && buffer) pathRules(buffer, ctm, stroked, rules);
    }
  }
  return rules;
}

/**
 * pathRules adds the rules of one path: each straight segment when stroked; a filled thin
 * rectangle's middle line. A stroked path with curves adds its straight sides that are as long as
 * ROUNDED_SIDE at least (a box with rounded corners, as invoices draw the seller's and the buyer's
 * boxes side by side): a curve's short straight pieces (a plot's line) stay out.
 */
function pathRules(buffer: ArrayLike<number>, m: Matrix, stroked: boolean, rules: Rule[]): void {
  let points: Array<[number, number]> = [];
  let curved = false;
  // the straight segments of the subpath, each from the point before (a curve moves the point, drawing none)
  let sides: Array<[[number, number], [number, number]]> = [];
  let current: [number, number] | null = null;
  let start: [number, number] | null = null;
  const flush = () => {
    if (points.length >= 2 && !curved) subpathRules(points, stroked, rules);
    else if (curved && stroked) for (const [a, b] of sides) roundedSide(a, b, rules);
    points = [];
    sides = [];
    curved = false;
  };
  const at = (x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
  for (let k = 0; k < buffer.length; ) {
    const op = buffer[k++];
    if (op === DRAW.moveTo) {
      flush();
      current = start = at(buffer[k]!, buffer[k + 1]!);
      points.push(current);
      k += 2;
    } else if (op === DRAW.lineTo) {
      const next = at(buffer[k]!, buffer[k + 1]!);
      if (current) sides.push([current, next]);
      points.push((current = next));
      k += 2;
    } else if (op === DRAW.curveTo) {
      curved = true;
      current = at(buffer[k + 4]!, buffer[k + 5]!);
      k += 6;
    } else if (op === DRAW.quadraticCurveTo) {
      curved = true;
      current = at(buffer[k + 2]!, buffer[k + 3]!);
      k += 4;
    } else if (op === DRAW.closePath) {
      if (points.length) points.push(points[0]!);
      if (current && start) sides.push([current, start]);
      current = start;
    } else {
      return;
    }
  }
  flush();
}

/** ROUNDED_SIDE: the shortest straight side (pt) of a path with curves that is a rule */
const ROUNDED_SIDE = 20;

/** roundedSide adds a straight side of a curved path as a rule: axis-aligned and ROUNDED_SIDE long at least */
function roundedSide([ax, ay]: [number, number], [bx, by]: [number, number], rules: Rule[]): void {
  if (Math.abs(ay - by) < 0.5 && Math.abs(ax - bx) >= ROUNDED_SIDE) rules.push({ x1: Math.min(ax, bx), x2: Math.max(ax, bx), y1: ay, y2: ay });
  else if (Math.abs(ax - bx) < 0.5 && Math.abs(ay - by) >= ROUNDED_SIDE) rules.push({ x1: ax, x2: ax, y1: Math.min(ay, by), y2: Math.max(ay, by) });
}

function subpathRules(points: Array<[number, number]>, stroked: boolean, rules: Rule[]): void {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const x1 = Math.min(...xs);
  const x2 = Math.max(...xs);
  const y1 = Math.min(...ys);
  const y2 = Math.max(...ys);
  const w = x2 - x1;
  const h = y2 - y1;
  // A thin box (a filled or stroked rectangle drawn as a line) is one rule along its length.
  if (h <= RULE_THICKNESS && w >= MIN_RULE) {
    rules.push({ x1, x2, y1: (y1 + y2) / 2, y2: (y1 + y2) / 2 });
    return;
  }
  if (w <= RULE_THICKNESS && h >= MIN_RULE) {
    rules.push({ x1: (x1 + x2) / 2, x2: (x1 + x2) / 2, y1, y2 });
    return;
  }
  if (!stroked) return;
  for (let i = 1; i < points.length; i++) {
    const [ax, ay] = points[i - 1]!;
    const [bx, by] = points[i]!;
    if (Math.abs(ay - by) < 0.5 && Math.abs(ax - bx) >= MIN_RULE) rules.push({ x1: Math.min(ax, bx), x2: Math.max(ax, bx), y1: ay, y2: ay });
    else if (Math.abs(ax - bx) < 0.5 && Math.abs(ay - by) >= MIN_RULE) rules.push({ x1: ax, x2: ax, y1: Math.min(ay, by), y2: Math.max(ay, by) });
  }
}

/** mergeRules joins collinear rules (same coordinate within SNAP) that touch or overlap. */
function mergeRules(rules: Rule[], horizontal: boolean): Rule[] {
  const key = (r: Rule) => (horizontal ? r.y1 : r.x1);
  const from = (r: Rule) => (horizontal ? r.x1 : r.y1);
  const to = (r: Rule) => (horizontal ? r.x2 : r.y2);
  const sorted = [...rules].sort((a, b) => key(a) - key(b));
  // Snap each rule's coordinate to the first of its run.
  const lanes: Rule[][] = [];
  for (const r of sorted) {
    const lane = lanes[lanes.length - 1];
    if (lane && key(r) - key(lane[0]!) <= SNAP) lane.push(r);
    else lanes.push([r]);
  }
  const merged: Rule[] = [];
  for (const lane of lanes) {
    // Each merged rule sits at the mean of its own pieces: two tables on a page whose rules differ by
    // a point share a lane, and one mean for both moved each off its own crossings.
    const spans = lane.map((r) => [from(r), to(r), key(r)] as [number, number, number]).sort((a, b) => a[0] - b[0]);
    let [a, b] = spans[0]!;
    let keys = [spans[0]![2]];
    const push = () => {
      const at = keys.reduce((sum, k) => sum + k, 0) / keys.length;
      merged.push(horizontal ? { x1: a, x2: b, y1: at, y2: at } : { x1: at, x2: at, y1: a, y2: b });
    };
    for (const [c, d, k] of spans.slice(1)) {
      if (c <= b + SNAP) {
        b = Math.max(b, d);
        keys.push(k);
      } else {
        push();
        [a, b, keys] = [c, d, [k]];
      }
    }
    push();
  }
  return merged;
}

/** meets: a horizontal and a vertical rule cross or touch (within SNAP) */
function meets(h: Rule, v: Rule): boolean {
  return v.x1 >= h.x1 - SNAP && v.x1 <= h.x2 + SNAP && h.y1 >= v.y1 - SNAP && h.y1 <= v.y2 + SNAP;
}

/** mergedRules: the page's horizontal and its vertical rules, each merged where collinear segments join (mergeRules) */
function mergedRules(rules: Rule[]): { horizontal: Rule[]; vertical: Rule[] } {
  return {
    horizontal: mergeRules(
      rules.filter((r) => r.y1 === r.y2),
      true,
    ),
    vertical: mergeRules(
      rules.filter((r) => r.x1 === r.x2 && r.y1 !== r.y2),
      false,
    ),
  };
}

/**
 * ruledGrids groups the page's rules into tables: rules that meet belong to one table; a group
 * with at least two horizontal and two vertical rules, and at least two cells, is a grid.
 */
export function ruledGrids(rules: Rule[]): RuledGrid[] {
  const { horizontal, vertical } = mergedRules(rules);
  if (horizontal.length < 2 || vertical.length < 2 || horizontal.length * vertical.length > MAX_RULE_PAIRS) return [];
  // Union-find over all rules: horizontal i is i, vertical j is horizontal.length + j.
  const parent = Array.from({ length: horizontal.length + vertical.length }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  horizontal.forEach((h, i) =>
    vertical.forEach((v, j) => {
      if (meets(h, v)) parent[find(i)] = find(horizontal.length + j);
    }),
  );
  const groups = new Map<number, { horizontal: Rule[]; vertical: Rule[] }>();
  const group = (i: number) => {
    const root = find(i);
    const g = groups.get(root) ?? { horizontal: [], vertical: [] };
    groups.set(root, g);
    return g;
  };
  horizontal.forEach((h, i) => group(i).horizontal.push(h));
  vertical.forEach((v, j) => group(horizontal.length + j).vertical.push(v));
  const grids: RuledGrid[] = [];
  for (const g of groups.values()) {
    if (g.horizontal.length < 2 || g.vertical.length < 2) continue;
    const xs = edges(g.vertical.map((v) => v.x1));
    const ys = edges(g.horizontal.map((h) => h.y1));
    if (xs.length < 2 || ys.length < 2 || (xs.length - 1) * (ys.length - 1) < 2) continue;
    grids.push({ xs, ys, horizontal: g.horizontal, vertical: g.vertical });
  }
  return grids.sort((a, b) => a.ys[0]! - b.ys[0]!);
}

/** DIVIDER_MIN_HEIGHT: the shortest stretch of a vertical rule (points) that may divide two parts of a page: an inch (a form's head boxes, its number beside its title and year, are shorter) */
const DIVIDER_MIN_HEIGHT = 72;
/** MAX_DIVIDERS: the most divider stretches a page may have; more is a drawing (a chart's or a hatching's lines), none is kept */
const MAX_DIVIDERS = 200;
/** HEAD_ROW_HEIGHT: the tallest stretch of a divider's rule above or below it that is read with it (a part's head row, ruled across both parts) */
const HEAD_ROW_HEIGHT = 30;

/**
 * RuleDivider: a stretch of a vertical rule at `x` from `top` to `bottom` that no horizontal rule
 * crosses, with how many horizontal rules end at it from the left (`endsLeft`) and from the right
 * (`endsRight`). pdfReadingOrder.ts (columnDividers) weighs it with the text beside it: two parts of a form set side by
 * side (each with its own rows ruled up to the rule), or two columns a rule stands between.
 */
export interface RuleDivider {
  x: number;
  top: number;
  bottom: number;
  endsLeft: number;
  endsRight: number;
  /** boxed: rules cross the rule at the stretch's top and at its bottom (the stretch is a row of cells ruled across, or a box's) */
  boxed: boolean;
  /** reachTop, reachBottom: the stretch with the rule's stretches above and below it that are under HEAD_ROW_HEIGHT (each part's head row, ruled across both) */
  reachTop: number;
  reachBottom: number;
}

/**
 * ruleDividers cuts each vertical rule at the horizontal rules that cross it (a row drawn across
 * both sides) and gives the stretches between that are DIVIDER_MIN_HEIGHT high at least. A box grid whose
 * rows run across the rule leaves only row-high stretches; two parts side by side leave one
 * stretch as high as the parts, their rows ending at it.
 */
export function ruleDividers(rules: Rule[]): RuleDivider[] {
  const { horizontal, vertical } = mergedRules(rules);
  const dividers: RuleDivider[] = [];
  if (horizontal.length * vertical.length > MAX_RULE_PAIRS) return dividers;
  for (const v of vertical) {
    if (v.y2 - v.y1 < DIVIDER_MIN_HEIGHT) continue;
    const x = v.x1;
    const inside = horizontal.filter((h) => h.y1 > v.y1 + SNAP && h.y1 < v.y2 - SNAP);
    const cuts = inside.filter((h) => h.x1 < x - SNAP && h.x2 > x + SNAP).map((h) => h.y1);
    const stops = [v.y1, ...cuts.sort((a, b) => a - b), v.y2];
    const height = (i: number) => stops[i]! - stops[i - 1]!;
    const crossedAt = (y: number) => horizontal.some((h) => Math.abs(h.y1 - y) <= SNAP && h.x1 < x - SNAP && h.x2 > x + SNAP);
    for (let i = 1; i < stops.length; i++) {
      if (height(i) < DIVIDER_MIN_HEIGHT) continue;
      const [top, bottom] = [stops[i - 1]!, stops[i]!];
      const within = inside.filter((h) => h.y1 > top + SNAP && h.y1 < bottom - SNAP);
      const endsLeft = within.filter((h) => Math.abs(h.x2 - x) <= SNAP && h.x1 < x - SNAP).length;
      const endsRight = within.filter((h) => Math.abs(h.x1 - x) <= SNAP && h.x2 > x + SNAP).length;
      let [above, below] = [i - 1, i];
      while (above > 0 && height(above) < HEAD_ROW_HEIGHT) above--;
      while (below + 1 < stops.length && height(below + 1) < HEAD_ROW_HEIGHT) below++;
      dividers.push({ x, top, bottom, endsLeft, endsRight, boxed: crossedAt(top) && crossedAt(bottom), reachTop: stops[above]!, reachBottom: stops[below]! });
    }
  }
  // more tall uncrossed rules than a form's parts and columns have: a drawing (bounds columnDividers' weighing of each against the page's text)
  return dividers.length > MAX_DIVIDERS ? [] : dividers;
}

/** edges: the distinct positions, ascending, those within SNAP of the one before dropped */
function edges(values: number[]): number[] {
  const out: number[] = [];
  for (const v of [...values].sort((a, b) => a - b)) if (!out.length || v - out[out.length - 1]! > SNAP) out.push(v);
  return out;
}

/** hasRule: a rule of `rules` at `at` covers most of [from, to] */
export function hasRule(rules: Rule[], horizontal: boolean, at: number, from: number, to: number): boolean {
  let covered = 0;
  for (const r of rules) {
    const key = horizontal ? r.y1 : r.x1;
    if (Math.abs(key - at) > SNAP) continue;
    const a = Math.max(from, horizontal ? r.x1 : r.y1);
    const b = Math.min(to, horizontal ? r.x2 : r.y2);
    if (b > a) covered += b - a;
  }
  return covered >= 0.6 * (to - from);
}

/**
 * HiddenRun: a run of text the page draws in white over nothing (no filled shape or image under it):
 * a reader sees none of it. Spreadsheets export their rows' nesting marks so (".Total",
 * "..Employed civilian" drawn with white dots for screen readers), and word processors a hanging
 * label repeated on each line of a caption ("Table 4.—" in white before every line after the
 * first). Baseline y and x from the page's top left, as the text items.
 */
export interface HiddenRun {
  x1: number;
  x2: number;
  y: number;
  size: number;
  text: string;
}

/** pdf.js OPS codes of text, colour and painting that hiddenTextRuns reads (pdf.js 5: src/shared/util.js OPS). */
const TEXT_OP = {
  beginText: 31,
  setCharSpacing: 33,
  setWordSpacing: 34,
  setHScale: 35,
  setLeading: 36,
  setFont: 37,
  setTextRenderingMode: 38,
  setTextRise: 39,
  moveText: 40,
  setLeadingMoveText: 41,
  setTextMatrix: 42,
  nextLine: 43,
  showText: 44,
  showSpacedText: 45,
  shadingFill: 62,
  paintFormXObjectBegin: 74,
  paintFormXObjectEnd: 75,
  setFillRGBColor: 59,
} as const;
/** IMAGE_OPS: pdf.js's image painting ops (mask, image, inline image and their groups and repeats, solid colour mask): each paints the unit square under the current transform */
const IMAGE_OPS = new Set([83, 84, 85, 86, 87, 88, 89, 90]);
/** MAX_HIDDEN_CHECKS: hidden glyph runs x backgrounds tested; past it the page is read as having no hidden text (a drawing with many shapes) */
const MAX_HIDDEN_CHECKS = 2_000_000;

interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** boxUnder: the page box of the rectangle (x1, y1)-(x2, y2) under transform m */
function boxUnder(m: Matrix, x1: number, y1: number, x2: number, y2: number): Box {
  const xs = [m[0] * x1 + m[2] * y1 + m[4], m[0] * x2 + m[2] * y1 + m[4], m[0] * x1 + m[2] * y2 + m[4], m[0] * x2 + m[2] * y2 + m[4]];
  const ys = [m[1] * x1 + m[3] * y1 + m[5], m[1] * x2 + m[3] * y1 + m[5], m[1] * x1 + m[3] * y2 + m[5], m[1] * x2 + m[3] * y2 + m[5]];
  return { x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) };
}

/** PathBounds: the box a path's coordinates span, from pdf.js's minMax when it gives one, else from the path's points */
function pathBounds(data: Array<ArrayLike<number> | null> | undefined, minMax: ArrayLike<number> | undefined): [number, number, number, number] | null {
  if (minMax && minMax.length >= 4 && Number.isFinite(minMax[0]!) && Number.isFinite(minMax[2]!)) return [minMax[0]!, minMax[1]!, minMax[2]!, minMax[3]!];
  const buffer = data?.[0];
  if (!buffer) return null;
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let k = 0; k < buffer.length; ) {
    const op = buffer[k++];
    const n = op === DRAW.moveTo || op === DRAW.lineTo ? 2 : op === DRAW.curveTo ? 6 : op === DRAW.quadraticCurveTo ? 4 : 0;
    for (let j = 0; j + 1 < n; j += 2) {
      x1 = Math.min(x1, buffer[k + j]!);
      x2 = Math.max(x2, buffer[k + j]!);
      y1 = Math.min(y1, buffer[k + j + 1]!);
      y2 = Math.max(y2, buffer[k + j + 1]!);
    }
    k += n;
  }
  return x1 <= x2 ? [x1, y1, x2, y2] : null;
}

/** GLYPH_UNITS: a glyph's width in pdf.js's operator list is in thousandths of the font size (the usual font matrix; a Type 3 font's differs, and its runs are placed only roughly) */
const GLYPH_UNITS = 0.001;

/**
 * hiddenTextRuns reads from pdf.js's operator list the runs of text filled in white (render modes
 * 0 and 4: filled, not stroked, not the invisible mode 3 of an OCR layer) whose middle lies on no
 * filled shape of another colour, image or shading painted before them. It follows the text state
 * (matrices, font size, spacing, scaling, rise) to place each glyph; `viewport` is the page
 * viewport's transform. A page that paints a shading (its extent unknown) or more shapes than
 * the checks allow has none.
 */
export function hiddenTextRuns(fnArray: ArrayLike<number>, argsArray: ArrayLike<unknown>, viewport: number[]): HiddenRun[] {
  interface State {
    ctm: Matrix;
    fill: string;
  }
  const stack: State[] = [];
  let state: State = { ctm: viewport.slice(0, 6) as Matrix, fill: "#000000" };
  const backgrounds: Box[] = [];
  const runs: Array<HiddenRun & { at: number }> = [];
  let tm: Matrix = [1, 0, 0, 1, 0, 0];
  let tlm: Matrix = [1, 0, 0, 1, 0, 0];
  let [fontSize, charSpacing, wordSpacing, hScale, leading, rise, mode] = [0, 0, 0, 1, 0, 0, 0];
  let paths = 0;
  const moveTo = (x: number, y: number) => {
    tlm = multiply(tlm, [1, 0, 0, 1, x, y]);
    tm = tlm;
  };
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i]!;
    const args = argsArray[i] as ArrayLike<unknown> | null;
    if (fn === OP.save) stack.push({ ...state });
    else if (fn === OP.restore) state = stack.pop() ?? state;
    else if (fn === OP.transform) state = { ...state, ctm: multiply(state.ctm, args as unknown as Matrix) };
    else if (fn === TEXT_OP.paintFormXObjectBegin) {
      stack.push({ ...state });
      const m = (args?.[0] ?? null) as ArrayLike<number> | null;
      if (m && m.length === 6) state = { ...state, ctm: multiply(state.ctm, Array.from(m) as Matrix) };
    } else if (fn === TEXT_OP.paintFormXObjectEnd) state = stack.pop() ?? state;
    else if (fn === TEXT_OP.setFillRGBColor) state = { ...state, fill: typeof args?.[0] === "string" ? (args[0] as string).toLowerCase() : "" };
    else if (fn === TEXT_OP.shadingFill) return [];
    else if (IMAGE_OPS.has(fn)) backgrounds.push(boxUnder(state.ctm, 0, 0, 1, 1));
    else if (fn === OP.constructPath) {
      if (++paths > MAX_PATHS) return [];
      const [op, data, minMax] = args as unknown as [number, Array<ArrayLike<number> | null>, ArrayLike<number> | undefined];
      if (!FILLS.has(op) || state.fill === "#ffffff") continue;
      const bounds = pathBounds(data, minMax);
      if (bounds) backgrounds.push(boxUnder(state.ctm, ...bounds));
    } else if (fn === TEXT_OP.beginText) tm = tlm = [1, 0, 0, 1, 0, 0];
    else if (fn === TEXT_OP.setTextMatrix) {
      // pdf.js 5 gives the matrix as one argument (a typed array); older builds as six
      const m = (args && typeof args[0] === "object" ? args[0] : args) as ArrayLike<number> | null;
      if (m && m.length >= 6) tm = tlm = Array.from(m).slice(0, 6) as Matrix;
    }
    else if (fn === TEXT_OP.setFont) fontSize = Number(args?.[1]) || 0;
    else if (fn === TEXT_OP.setCharSpacing) charSpacing = Number(args?.[0]) || 0;
    else if (fn === TEXT_OP.setWordSpacing) wordSpacing = Number(args?.[0]) || 0;
    else if (fn === TEXT_OP.setHScale) hScale = (Number(args?.[0]) || 100) / 100;
    else if (fn === TEXT_OP.setLeading) leading = Number(args?.[0]) || 0;
    else if (fn === TEXT_OP.setTextRise) rise = Number(args?.[0]) || 0;
    else if (fn === TEXT_OP.setTextRenderingMode) mode = Number(args?.[0]) || 0;
    else if (fn === TEXT_OP.moveText) moveTo(Number(args?.[0]) || 0, Number(args?.[1]) || 0);
    else if (fn === TEXT_OP.setLeadingMoveText) {
      leading = -(Number(args?.[1]) || 0);
      moveTo(Number(args?.[0]) || 0, Number(args?.[1]) || 0);
    } else if (fn === TEXT_OP.nextLine) moveTo(0, -leading);
    else if (fn === TEXT_OP.showText || fn === TEXT_OP.showSpacedText) {
      const glyphs = (args?.[0] ?? []) as ArrayLike<unknown>;
      const white = state.fill === "#ffffff" && (mode === 0 || mode === 4);
      const m = multiply(state.ctm, tm);
      const upright = Math.abs(m[1]) <= Math.abs(m[0]) * 0.1 && m[0] > 0;
      const size = Math.abs(fontSize) * Math.hypot(m[2], m[3]);
      let tx = 0;
      let run: (HiddenRun & { at: number }) | null = null;
      for (let g = 0; g < glyphs.length; g++) {
        const glyph = glyphs[g] as { width?: number; unicode?: string; isSpace?: boolean } | number | null;
        if (typeof glyph === "number") {
          tx -= (glyph / 1000) * fontSize * hScale;
          continue;
        }
        if (!glyph) continue;
        const advance = ((glyph.width ?? 0) * GLYPH_UNITS * fontSize + charSpacing + (glyph.isSpace ? wordSpacing : 0)) * hScale;
        if (white && upright && size > 0) {
          const x = m[0] * tx + m[2] * rise + m[4];
          const x2 = m[0] * (tx + advance) + m[2] * rise + m[4];
          if (!run) {
            run = { x1: x, x2, y: m[1] * tx + m[3] * rise + m[5], size, text: "", at: backgrounds.length };
            runs.push(run);
          }
          run.x2 = x2;
          run.text += glyph.unicode ?? "";
        }
        tx += advance;
      }
      tm = multiply(tm, [1, 0, 0, 1, tx, 0]);
    }
  }
  if (runs.length * Math.max(1, backgrounds.length) > MAX_HIDDEN_CHECKS) return [];
  // a run is hidden when no background painted before it holds its middle
  return runs
    .filter((run) => run.text.trim() !== "")
    .filter((run) => {
      const x = (run.x1 + run.x2) / 2;
      const y = run.y - run.size * 0.3;
      for (let b = 0; b < run.at; b++) {
        const box = backgrounds[b]!;
        if (x >= box.x1 && x <= box.x2 && y >= box.y1 && y <= box.y2) return false;
      }
      return true;
    })
    .map(({ at: _at, ...run }) => run);
}
