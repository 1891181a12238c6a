/**
 * Saved values of an OpenDocument spreadsheet's volatile formulas. LibreOffice recalculates
 * TODAY(), NOW(), RAND() and RANDBETWEEN() whenever it loads a file, whatever its "recalculate on
 * load" setting (ODFRecalcMode = never was measured to change nothing), so the XLSX it makes of an
 * ODS holds today's date where the author saved another: an expense report's dates, an invoice's
 * "issued on". The ODS itself keeps the value it showed when saved; savedVolatileCells reads those
 * cells from content.xml (or the flat .fods), and the XLSX converter lays them over LibreOffice's
 * grid (same sheet names, same row and column positions).
 *
 * A saved date is written as the converter writes every date (ISO, "2021-02-05", with the time
 * when it has one); any other value as the cell showed it (its text).
 */
import { Parser } from "htmlparser2";
import { ZipArchive } from "../ingest/zip";
import type { ConvertContext, ConvertInput } from "./types";

/** SavedCells: per sheet name, per "row:column" (0-based), the text a volatile formula's cell showed when saved ("" for an empty result). */
export type SavedCells = Map<string, Map<string, string>>;

/** VOLATILE: functions whose result changes by the day or the draw, not by the sheet's data */
const VOLATILE = /\b(TODAY|NOW|RAND|RANDBETWEEN)\s*\(/i;
/** MAX_SAVED_CELLS: a formula copied down a whole column is kept for this many cells at most (the converter keeps fewer rows than that) */
const MAX_SAVED_CELLS = 100_000;

/**
 * savedVolatileCells reads an ODS/OTS/FODS's volatile formula cells; `ext` is the format's
 * extension (the detected one of the input is "zip" or "xml"). Null when it has none or cannot be
 * read (LibreOffice's own error stands then).
 */
export function savedVolatileCells(input: ConvertInput, ext: string, ctx: ConvertContext): SavedCells | null {
  let xml: string | undefined;
  try {
    if (ext === "fods") xml = new TextDecoder().decode(input.bytes);
    else xml = new ZipArchive(input.bytes, ctx.limits.maxDecompressedBytes, `ODS '${input.filename}'`).text("content.xml");
  } catch {
    return null;
  }
  if (!xml || !VOLATILE.test(xml)) return null;
  return readSaved(xml);
}

/** readSaved walks the tables' rows and cells (with their repeat counts) and keeps the cells whose formula is volatile. */
function readSaved(xml: string): SavedCells | null {
  const saved: SavedCells = new Map();
  let sheet: Map<string, string> | null = null;
  let row = -1;
  let rowRepeat = 1;
  let col = 0;
  let cell: { col: number; repeat: number; value: string | null; paragraphs: string[] } | null = null;
  let inParagraph = 0;
  let kept = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        switch (name) {
          case "table:table":
            sheet = new Map();
            saved.set(attrs["table:name"] ?? "", sheet);
            row = -1;
            rowRepeat = 1;
            break;
          case "table:table-row":
            row += rowRepeat;
            rowRepeat = Math.max(1, Number(attrs["table:number-rows-repeated"] ?? 1) || 1);
            col = 0;
            break;
          case "table:table-cell":
          case "table:covered-table-cell": {
            const repeat = Math.max(1, Number(attrs["table:number-columns-repeated"] ?? 1) || 1);
            const formula = attrs["table:formula"];
            cell = formula && VOLATILE.test(formula) ? { col, repeat, value: savedValue(attrs), paragraphs: [] } : null;
            col += repeat;
            break;
          }
          case "text:p":
          case "text:h":
            if (cell) {
              cell.paragraphs.push("");
              inParagraph++;
            }
            break;
          case "text:s":
            if (cell && inParagraph) appendText(" ".repeat(Math.max(1, Number(attrs["text:c"] ?? 1) || 1)));
            break;
          case "text:tab":
            if (cell && inParagraph) appendText("\t");
            break;
          case "text:line-break":
            if (cell && inParagraph) appendText("\n");
            break;
        }
      },
      ontext(text) {
        if (cell && inParagraph) appendText(text);
      },
      onclosetag(name) {
        if ((name === "text:p" || name === "text:h") && inParagraph) inParagraph--;
        else if ((name === "table:table-cell" || name === "table:covered-table-cell") && cell && sheet) {
          const text = cell.value ?? cell.paragraphs.join("\n");
          // a cell repeated down and across is one formula copied: each copy showed the same when saved
          for (let r = row; r < row + rowRepeat && kept < MAX_SAVED_CELLS; r++) {
            for (let c = cell.col; c < cell.col + cell.repeat && kept < MAX_SAVED_CELLS; c++, kept++) sheet.set(`${r}:${c}`, text);
          }
          cell = null;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  const appendText = (text: string) => {
    if (!cell) return;
    const last = cell.paragraphs.length - 1;
    cell.paragraphs[last] = (cell.paragraphs[last] ?? "") + text;
  };
  parser.write(xml);
  parser.end();
  for (const [name, cells] of saved) if (cells.size === 0) saved.delete(name);
  return saved.size ? saved : null;
}

/** savedValue is a saved date (or date and time) as ISO text; null for other types, whose shown text is kept */
function savedValue(attrs: Record<string, string>): string | null {
  if (attrs["office:value-type"] !== "date") return null;
  const date = attrs["office:date-value"];
  const match = date ? /^(-?\d{4,}-\d{2}-\d{2})(?:T(\d{2}:\d{2}:\d{2}))?/.exec(date) : null;
  if (!match) return null;
  return match[2] && match[2] !== "00:00:00" ? `${match[1]} ${match[2]}` : match[1]!;
}
