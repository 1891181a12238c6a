/**
 * USPTO patent full text in the APS ("Green Book") text format of 1976 to 2001 -> markdown, like
 * the XML generations (patent.ts): title, abstract, description with its headings, claims as a
 * numbered list. An APS record is lines of a 4-character field code and a value from column 6;
 * lines starting with spaces continue the previous value; a code alone on its line (PATN, ABST,
 * BSUM, DRWD, DETD, CLMS, ...) opens a section. A weekly file holds many records; each becomes a
 * part under its own title.
 */
import { AppError } from "../errors";
import { decodeText } from "./charset";
import type { Converter } from "./types";
import { element, escapeHtmlText, xmlHtmlToMarkdown } from "./xmlMarkup";

/** isApsPatent says whether text (its first KB suffice) is an APS record: an optional HHHHHT header, then PATN and a field line. */
export function isApsPatent(head: string): boolean {
  return /^\uFEFF?(?:HHHHHT[^\n]*\n)?PATN[ \t]*\r?\n[A-Z][A-Z0-9]{2,3} {1,2}\S/.test(head.slice(0, 1024));
}

interface Field {
  section: string;
  code: string;
  value: string;
}

/** parseAps reads the fields of the text in order; continuation lines join their field's value with a space. */
function parseAps(text: string): Field[] {
  const fields: Field[] = [];
  let section = "";
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trimEnd();
    if (!line || line.startsWith("HHHHHT")) continue;
    if (/^[A-Z][A-Z0-9]{3}$/.test(line)) {
      section = line;
      if (section === "PATN") fields.push({ section, code: "PATN", value: "" });
      continue;
    }
    const field = /^([A-Z][A-Z0-9]{2,3}) {1,2}(.*)$/.exec(line);
    if (field && !/^\s/.test(line)) fields.push({ section, code: field[1]!, value: field[2]!.trim() });
    else if (fields.length) {
      const last = fields[fields.length - 1]!;
      last.value += (last.code === "TBL" || last.code === "EQU" ? "\n" : " ") + line.trim();
    }
  }
  return fields;
}

/** TEXT_SECTIONS: the sections holding prose, with the part they belong to */
const TEXT_SECTIONS: Record<string, string> = {
  ABST: "Abstract", GOVT: "Description", PARN: "Description", BSUM: "Description", DRWD: "Description", DETD: "Description",
  CLMS: "Claims", DCLM: "Claims",
};

/** recordHtml writes one patent record (the fields from one PATN to the next). */
function recordHtml(fields: Field[], titleLevel: number): string {
  const title = fields.find((f) => f.section === "PATN" && f.code === "TTL")?.value ?? "";
  let out = title ? element(`h${titleLevel}`, escapeHtmlText(title)) : "";
  let part = "";
  let claims: string[] = [];
  let claim: string[] | null = null;
  let claimNumber: number | undefined;
  const flushClaim = () => {
    if (claim && claim.length) claims.push(element("li", claim.map((p) => element("p", p)).join(""), { value: claimNumber }));
    claim = null;
    claimNumber = undefined;
  };
  const flushClaims = () => {
    flushClaim();
    if (claims.length) out += element("ol", claims.join(""));
    claims = [];
  };
  for (const f of fields) {
    const target = TEXT_SECTIONS[f.section];
    if (!target) continue;
    if (target !== part) {
      flushClaims();
      part = target;
      out += element(`h${titleLevel + 1}`, part);
    }
    const text = escapeHtmlText(f.value);
    if (part === "Claims" && f.section === "CLMS") {
      if (f.code === "STM") out += element("p", text);
      else if (f.code === "NUM") {
        flushClaim();
        claim = [];
        const n = Number.parseInt(f.value, 10);
        claimNumber = Number.isFinite(n) ? n : undefined;
      } else if (f.value) {
        claim ??= [];
        claim.push(claim.length === 0 ? text.replace(/^\d+\s*\.\s*/, "") : text);
      }
      continue;
    }
    if (f.code === "PAC") out += element(`h${titleLevel + 2}`, text);
    else if (f.code === "TBL" || f.code === "EQU") out += element("pre", text);
    else if (f.value) out += element("p", text);
  }
  flushClaims();
  return out;
}

/** convertApsPatent writes an APS patent text file (one record or a weekly file of many) as markdown. */
export const convertApsPatent: Converter = async (input, ctx) => {
  const fields = parseAps(decodeText(input.bytes, input.declaredCharset).text);
  const records: Field[][] = [];
  for (const f of fields) {
    if (f.code === "PATN") records.push([]);
    else records[records.length - 1]?.push(f);
  }
  ctx.signal.throwIfAborted();
  const html = records.map((r) => recordHtml(r, records.length > 1 ? 2 : 1)).join("");
  const markdown = xmlHtmlToMarkdown(html);
  if (!markdown.trim()) throw new AppError("empty_document", `patent text '${input.filename}' has no title, abstract, description or claims to convert.`);
  const title = records.length === 1 ? (/^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? null) : null;
  return { markdown, title, totalPages: 0, method: "patent", warnings: [] };
};
