/**
 * wordNumbering computes the number Word shows before a numbered paragraph (a heading's `1.1.1`, a
 * clause's `(a)`, `iv.`, `Article 3`) from numbering.xml (ECMA-376 Part 1, 17.9): each list
 * instance (w:num) points at an abstract definition (w:abstractNum, or through w:numStyleLink a
 * numbering style's), whose nine levels give a format (w:numFmt), a text with placeholders
 * (w:lvlText `%1.%2.`), a start value, when the level restarts (w:lvlRestart) and whether it shows
 * every level in decimal (w:isLgl); a w:num may restart a level (w:startOverride) or replace it
 * (w:lvlOverride/w:lvl). One engine serves headings and list items: a heading style's numbering and
 * a list's share their counters when they share a definition, as in Word.
 *
 * Counters: lists that share an abstract definition continue each other unless one restarts a level
 * (then that list counts on its own), as docx.ts did before this module.
 */
import { child, childrenNamed, descendants, isOn, type XmlElement } from "./ooxml";

/** NumberingLevel is one level of a definition. */
export interface NumberingLevel {
  format: string;
  /** text: w:lvlText's value (`%1.%2.`, `(%1)`, a bullet character) */
  text: string;
  start: number;
  /** restartAfter: 0-based level whose use restarts this one and every level above it (-1 never); null: any lower level restarts it (Word's default) */
  restartAfter: number | null;
  legal: boolean;
  /** left: the level's left indent in twips (its w:pPr w:ind), null when it sets none */
  left: number | null;
}

/** NumberLabel is what one numbered paragraph shows. */
export interface NumberLabel {
  /** label: the number as shown (`1.1`, `(a)`, `iv.`), "" for a bullet or a level that shows no text */
  label: string;
  bullet: boolean;
  /** plain: the label is this level's own decimal counter and a full stop or parenthesis (`%N.`, `%N)` of level N), what a markdown ordered list shows */
  plain: boolean;
  /** value: the level's counter */
  value: number;
}

/** MAX_LEVELS: Word's nine levels (0-8) */
const MAX_LEVELS = 9;
/** MAX_LINKS: numStyleLink hops followed (a link to a style whose list links again) */
const MAX_LINKS = 8;
/** MAX_LABEL: characters of a level text kept (Word caps it far lower; a hostile one is cut) */
const MAX_LABEL = 200;

/** leftIndent reads a w:ind's left indent in twips (w:left, or w:start in newer files); null when it sets none */
export function leftIndent(ind: XmlElement | undefined): number | null {
  const value = ind?.attrs["w:left"] ?? ind?.attrs["w:start"];
  if (value === undefined || !/^-?\d{1,7}$/.test(value)) return null;
  return Number(value);
}

function readLevel(lvl: XmlElement, ilvl: number): NumberingLevel {
  const restart = child(lvl, "w:lvlRestart")?.attrs["w:val"];
  const restartValue = restart === undefined ? Number.NaN : Math.floor(Number(restart));
  const start = Math.floor(Number(child(lvl, "w:start")?.attrs["w:val"] ?? 1));
  const textEl = child(lvl, "w:lvlText");
  return {
    format: child(lvl, "w:numFmt")?.attrs["w:val"] ?? "decimal",
    // no w:lvlText at all: the level's own number and a full stop
    text: (textEl ? (textEl.attrs["w:val"] ?? "") : `%${ilvl + 1}.`).slice(0, MAX_LABEL),
    start: Number.isFinite(start) ? Math.max(0, Math.min(start, 1_000_000)) : 1,
    restartAfter: Number.isNaN(restartValue) ? null : restartValue <= 0 ? -1 : restartValue - 1,
    legal: isOn(child(lvl, "w:isLgl")),
    left: leftIndent(child(child(lvl, "w:pPr"), "w:ind")),
  };
}

/** ListInstance is one w:num: its definition and its own overrides. */
interface ListInstance {
  abstractId: string;
  startOverrides: Map<number, number>;
  levelOverrides: Map<number, NumberingLevel>;
}

/** WordNumbering holds one document's numbering definitions and counters. */
export class WordNumbering {
  private readonly abstracts = new Map<string, { levels: Map<number, NumberingLevel>; styleLink: string | null }>();
  private readonly nums = new Map<string, ListInstance>();
  private readonly counters = new Map<string, (number | undefined)[]>();

  /** styleNumId gives the numId a (numbering) style's paragraph properties name, for w:numStyleLink */
  constructor(
    root: XmlElement | undefined,
    private readonly styleNumId: (styleId: string) => string | null,
  ) {
    if (!root) return;
    for (const abs of descendants(root, "w:abstractNum")) {
      const levels = new Map<number, NumberingLevel>();
      for (const lvl of childrenNamed(abs, "w:lvl")) {
        const ilvl = Number(lvl.attrs["w:ilvl"] ?? 0);
        if (Number.isInteger(ilvl) && ilvl >= 0 && ilvl < MAX_LEVELS) levels.set(ilvl, readLevel(lvl, ilvl));
      }
      this.abstracts.set(abs.attrs["w:abstractNumId"] ?? "", { levels, styleLink: child(abs, "w:numStyleLink")?.attrs["w:val"] ?? null });
    }
    for (const num of descendants(root, "w:num")) {
      const startOverrides = new Map<number, number>();
      const levelOverrides = new Map<number, NumberingLevel>();
      for (const override of childrenNamed(num, "w:lvlOverride")) {
        const ilvl = Number(override.attrs["w:ilvl"] ?? 0);
        if (!Number.isInteger(ilvl) || ilvl < 0 || ilvl >= MAX_LEVELS) continue;
        const start = Math.floor(Number(child(override, "w:startOverride")?.attrs["w:val"]));
        if (Number.isFinite(start)) startOverrides.set(ilvl, Math.max(0, Math.min(start, 1_000_000)));
        const lvl = child(override, "w:lvl");
        if (lvl) levelOverrides.set(ilvl, readLevel(lvl, ilvl));
      }
      this.nums.set(num.attrs["w:numId"] ?? "", { abstractId: child(num, "w:abstractNumId")?.attrs["w:val"] ?? "", startOverrides, levelOverrides });
    }
  }

  /** has: the document defines list `numId` */
  has(numId: string): boolean {
    return this.nums.has(numId);
  }

  /** definition follows an abstract definition's numStyleLink to the numbering style's list (cycles and long chains cut) */
  private definition(abstractId: string): { id: string; levels: Map<number, NumberingLevel> } | null {
    let id = abstractId;
    for (let hop = 0; hop <= MAX_LINKS; hop++) {
      const abs = this.abstracts.get(id);
      if (!abs) return null;
      if (!abs.styleLink || abs.levels.size) return { id, levels: abs.levels };
      const numId = this.styleNumId(abs.styleLink);
      const next = numId === null ? undefined : this.nums.get(numId)?.abstractId;
      if (next === undefined || next === id) return null;
      id = next;
    }
    return null;
  }

  /** level: the definition of list `numId` at `ilvl` (its own override first), null when the list is unknown */
  level(numId: string, ilvl: number): NumberingLevel | null {
    const num = this.nums.get(numId);
    if (!num) return null;
    return num.levelOverrides.get(ilvl) ?? this.definition(num.abstractId)?.levels.get(ilvl) ?? null;
  }

  /**
   * next advances the counters of one numbered paragraph of list `numId` at level `ilvl` and returns
   * what it shows; null when the list is unknown or its level shows nothing (format "none", an empty text).
   */
  next(numId: string, ilvl: number): NumberLabel | null {
    const num = this.nums.get(numId);
    if (!num) return null;
    const def = this.definition(num.abstractId);
    const levelOf = (l: number): NumberingLevel | undefined => num.levelOverrides.get(l) ?? def?.levels.get(l);
    // a list with no definition of the level: bullets at odd levels, numbers at even ones (as before)
    const level = levelOf(ilvl) ?? { format: ilvl % 2 ? "bullet" : "decimal", text: ilvl % 2 ? "•" : `%${ilvl + 1}.`, start: 1, restartAfter: null, legal: false, left: null };
    const key = num.startOverrides.size || num.levelOverrides.size ? `num:${numId}` : `abs:${def?.id ?? num.abstractId}`;
    let counters = this.counters.get(key);
    if (!counters) this.counters.set(key, (counters = []));
    const startOf = (l: number) => num.startOverrides.get(l) ?? levelOf(l)?.start ?? 1;
    const value = counters[ilvl] === undefined ? startOf(ilvl) : counters[ilvl]! + 1;
    counters[ilvl] = value;
    // deeper levels restart when this level is used, unless their lvlRestart names a level above this one (or never)
    for (let deeper = ilvl + 1; deeper < MAX_LEVELS; deeper++) {
      const after = levelOf(deeper)?.restartAfter ?? null;
      if (after === null || (after >= 0 && ilvl <= after)) counters[deeper] = undefined;
    }
    if (level.format === "none") return null;
    if (level.format === "bullet") return { label: "", bullet: true, plain: false, value };
    if (!level.text) return null;
    const label = level.text.replace(/%([1-9])/g, (_, d: string) => {
      const l = Number(d) - 1;
      const shown = counters[l] ?? startOf(l);
      const format = level.legal ? "decimal" : (levelOf(l)?.format ?? "decimal");
      return countText(shown, format);
    });
    const plain = level.format === "decimal" && (level.text === `%${ilvl + 1}.` || level.text === `%${ilvl + 1})`);
    return { label, bullet: false, plain, value };
  }
}

const ROMAN: [number, string][] = [[1000, "m"], [900, "cm"], [500, "d"], [400, "cd"], [100, "c"], [90, "xc"], [50, "l"], [40, "xl"], [10, "x"], [9, "ix"], [5, "v"], [4, "iv"], [1, "i"]];
const ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const ORDINAL_WORDS: Record<string, string> = { one: "first", two: "second", three: "third", five: "fifth", eight: "eighth", nine: "ninth", twelve: "twelfth" };

/** cardinal: an English number name under 100 ("twenty-one"), null past it */
function cardinal(n: number): string | null {
  if (n < 20) return ONES[n]!;
  if (n >= 100) return null;
  return TENS[Math.floor(n / 10)]! + (n % 10 ? `-${ONES[n % 10]}` : "");
}

/**
 * countText writes a counter in a level's number format: decimal, decimalZero (`01`), letters (`a`
 * ... `z`, `aa`, `bb`: Word repeats the letter), Roman numerals, ordinals (`1st`), English number
 * names (`One`, `First`) under a hundred; any other format (East Asian counting, enclosed digits)
 * as decimal digits.
 */
export function countText(n: number, format: string): string {
  switch (format) {
    case "decimalZero":
      return n < 10 ? `0${n}` : String(n);
    case "lowerLetter":
    case "upperLetter": {
      if (n < 1) return String(n);
      const letter = String.fromCharCode(97 + ((n - 1) % 26)).repeat(Math.min(Math.ceil(n / 26), 20));
      return format === "upperLetter" ? letter.toUpperCase() : letter;
    }
    case "lowerRoman":
    case "upperRoman": {
      if (n < 1 || n >= 4000) return String(n);
      let rest = n;
      let out = "";
      for (const [value, digits] of ROMAN) while (rest >= value) (out += digits), (rest -= value);
      return format === "upperRoman" ? out.toUpperCase() : out;
    }
    case "ordinal": {
      const tens = n % 100;
      const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
      return `${n}${suffix}`;
    }
    case "cardinalText":
    case "ordinalText": {
      const name = cardinal(n);
      if (name === null) return String(n);
      let words = name;
      if (format === "ordinalText") {
        const parts = name.split("-");
        const last = parts.pop()!;
        const ordinal = ORDINAL_WORDS[last] ?? (last.endsWith("y") ? `${last.slice(0, -1)}ieth` : `${last}th`);
        words = [...parts, ordinal].join("-");
      }
      return words[0]!.toUpperCase() + words.slice(1);
    }
    default:
      return String(n);
  }
}

/** AUTO_NUMBER: DrawingML's a:buAutoNum schemes (ECMA-376 20.1.10.61) as a number format and the text around the number */
const AUTO_NUMBER: Record<string, [string, string, string]> = {
  arabicPeriod: ["decimal", "", "."],
  arabicParenR: ["decimal", "", ")"],
  arabicParenBoth: ["decimal", "(", ")"],
  arabicPlain: ["decimal", "", ""],
  alphaLcPeriod: ["lowerLetter", "", "."],
  alphaUcPeriod: ["upperLetter", "", "."],
  alphaLcParenR: ["lowerLetter", "", ")"],
  alphaUcParenR: ["upperLetter", "", ")"],
  alphaLcParenBoth: ["lowerLetter", "(", ")"],
  alphaUcParenBoth: ["upperLetter", "(", ")"],
  romanLcPeriod: ["lowerRoman", "", "."],
  romanUcPeriod: ["upperRoman", "", "."],
  romanLcParenR: ["lowerRoman", "", ")"],
  romanUcParenR: ["upperRoman", "", ")"],
  romanLcParenBoth: ["lowerRoman", "(", ")"],
  romanUcParenBoth: ["upperRoman", "(", ")"],
};

/**
 * autoNumberLabel is what a slide's auto-numbered paragraph shows (a:buAutoNum type, its counter):
 * `plain` when it is the number and a full stop or parenthesis (a markdown ordered list shows it);
 * schemes not listed (East Asian, circled digits) as `n.`.
 */
export function autoNumberLabel(n: number, scheme: string): { label: string; plain: boolean } {
  const [format, before, after] = AUTO_NUMBER[scheme] ?? ["decimal", "", "."];
  return { label: `${before}${countText(n, format)}${after}`, plain: format === "decimal" && before === "" && (after === "." || after === ")") };
}
