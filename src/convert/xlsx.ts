/**
 * XLSX -> markdown, natively: one `## <sheet>` heading and one GFM table per sheet in workbook
 * order. Cell values are what Excel shows without number styling: shared and inline strings,
 * numbers, booleans, cached formula results, and dates (built-in and custom date formats, 1900 and
 * 1904 systems) as ISO text. Sheets are read with a streaming parser, so a large sheet never
 * becomes a tree. LibreOffice's XLSX output (from XLS, ODS, NUMBERS) goes through the same path.
 */
import { Parser } from "htmlparser2";
import { checkMarkdownSize, escapeText, gfmTable, heading, joinBlocks, markdownUrl, tidyMarkdown } from "./markdown";
import { assertWithinPageLimit, baseName, child, childrenNamed, codeSpans, descendants, firstDescendant, hardBreaks, imageAlt, ImageCollector, metadataOrEmpty, OoxmlPackage, path, type Relationship, renderChartPart, textContent, type XmlElement } from "./ooxml";
import { isMonoFontName } from "./monoFont";
import { renderDateFormat, renderNumberFormat } from "./numberFormat";
import type { ConvertContext, Converter } from "./types";

/** MAX_ROWS_PER_SHEET: rows with content rendered per sheet; the rest is dropped with a warning. */
export const MAX_ROWS_PER_SHEET = 10_000;
/** MAX_COLUMNS: columns rendered per sheet (Excel allows 16 384; wider tables are unreadable). */
export const MAX_COLUMNS = 1_000;

/** convertXlsx turns an Excel workbook into markdown, one table per sheet. */
export const convertXlsx: Converter = async (input, ctx) => {
  ctx.signal.throwIfAborted();
  const pkg = OoxmlPackage.open(input, ctx, "XLSX");
  const workbookPart = pkg.mainPart("xl/workbook.xml", "workbook");
  const workbook = child(pkg.xml(workbookPart), "workbook");
  const date1904 = ["1", "true"].includes(child(workbook, "workbookPr")?.attrs["date1904"] ?? "");
  const sheets = descendants(child(workbook, "sheets"), "sheet");
  assertWithinPageLimit(sheets.length, ctx, pkg.what, "sheets");
  const rels = pkg.rels(workbookPart);
  const sharedStrings = readSharedStrings(pkg, workbookPart);
  const formats = readNumberFormats(pkg, workbookPart);
  const images = new ImageCollector(pkg);
  const warnings: string[] = [];
  const sections: string[] = [];
  let hasContent = false;
  for (const sheet of sheets) {
    ctx.signal.throwIfAborted();
    const name = sheet.attrs["name"] ?? "Sheet";
    const rel = rels.get(sheet.attrs["r:id"] ?? "");
    const state = sheet.attrs["state"];
    const blocks: string[] = [heading(2, escapeText(name))];
    if (state === "hidden" || state === "veryHidden") blocks.push("*(hidden sheet)*");
    if (!rel || rel.external || !pkg.zip.has(rel.target)) {
      blocks.push("*(sheet data missing from the file)*");
      sections.push(joinBlocks(blocks));
      continue;
    }
    if (rel.type.endsWith("/chartsheet")) {
      const charts = sheetCharts(pkg, rel.target);
      blocks.push(...charts);
      hasContent ||= charts.length > 0;
      sections.push(joinBlocks(blocks));
      continue;
    }
    const xml = pkg.zip.text(rel.target) ?? "";
    const saved = input.savedCells?.get(name);
    const grid = readSheet(xml, sharedStrings, formats, date1904, saved);
    if (saved) laySavedCells(grid, saved, formats, date1904);
    linkCells(grid, pkg.rels(rel.target));
    const parts = sheetBlocks(grid);
    if (grid.droppedRows > 0) warnings.push(`sheet '${name}': ${grid.droppedRows} rows past the first ${MAX_ROWS_PER_SHEET} were not converted`);
    if (grid.droppedColumns) warnings.push(`sheet '${name}': columns past the first ${MAX_COLUMNS} were not converted`);
    for (const part of parts) blocks.push(part.kind === "table" ? gfmTable(part.rows) : part.rows.map((row) => hardBreaks(row.find((v) => v !== "") ?? "").replace(/^(\s*)([#>+-]|\d+\.)(\s)/gm, "$1\\$2$3")).join("\n\n"));
    hasContent ||= parts.length > 0;
    const pictures = sheetPictures(pkg, rel.target, images);
    const charts = sheetCharts(pkg, rel.target);
    const comments = sheetComments(pkg, rel.target);
    blocks.push(...pictures, ...charts, comments);
    hasContent ||= pictures.length > 0 || charts.length > 0 || comments !== "";
    if (!parts.length && !pictures.length && !charts.length) blocks.push("*(empty sheet)*");
    sections.push(joinBlocks(blocks));
    checkMarkdownSize(sections.reduce((sum, s) => sum + s.length, 0), ctx.limits, pkg.what);
  }
  if (!hasContent) return metadataOrEmpty(pkg.properties(), pkg.what, "has no cells with values in any sheet");
  const { markdown, ocrAdded } = await images.resolve(joinBlocks(sections), ctx, warnings);
  const props = pkg.properties();
  return {
    markdown: tidyMarkdown(markdown),
    title: props.title,
    totalPages: sheets.length,
    method: ocrAdded ? "text+ocr" : "text",
    warnings,
  };
};

/**
 * embeddedSheet renders the sheet a workbook embedded as an OLE object shows (a sheet or a chart's data
 * pasted into a slide as an object, whose picture is all the slide draws): the workbook's active sheet,
 * its tables and lines as the sheet's own section holds them, the cells as last saved. Null when the
 * embedding is not a workbook that can be read (the caller keeps the object's picture).
 */
export function embeddedSheet(bytes: Uint8Array, name: string, ctx: ConvertContext): string | null {
  let pkg: OoxmlPackage;
  let workbookPart: string;
  try {
    pkg = OoxmlPackage.open({ bytes, filename: name, contentType: "application/octet-stream", ext: "xlsx" }, ctx, "XLSX");
    workbookPart = pkg.mainPart("xl/workbook.xml", "workbook");
  } catch {
    return null;
  }
  const workbook = child(pkg.xml(workbookPart), "workbook");
  const date1904 = ["1", "true"].includes(child(workbook, "workbookPr")?.attrs["date1904"] ?? "");
  const sheets = descendants(child(workbook, "sheets"), "sheet");
  const active = Number(path(workbook, "bookViews", "workbookView")?.attrs["activeTab"] ?? 0) || 0;
  const sheet = sheets[active] ?? sheets[0];
  const rel = pkg.rels(workbookPart).get(sheet?.attrs["r:id"] ?? "");
  const xml = rel && !rel.external ? pkg.zip.text(rel.target) : undefined;
  if (xml === undefined) return null;
  const grid = readSheet(xml, readSharedStrings(pkg, workbookPart), readNumberFormats(pkg, workbookPart), date1904);
  const parts = sheetBlocks(grid);
  if (!parts.length) return null;
  return joinBlocks(parts.map((part) => (part.kind === "table" ? gfmTable(part.rows) : part.rows.map((row) => escapeText(row.find((v) => v !== "") ?? "")).join("\n\n"))));
}

/** localName drops a namespace prefix: sheets are parsed as a stream, without the tree's canonical names. */
function localName(name: string): string {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
}

/** readSharedStrings reads the shared string table (rich text runs joined, phonetic hints skipped). */
function readSharedStrings(pkg: OoxmlPackage, workbookPart: string): string[] {
  const rel = pkg.relsOfType(workbookPart, "sharedStrings")[0];
  const text = pkg.zip.text(rel && !rel.external ? rel.target : "xl/sharedStrings.xml");
  const strings: string[] = [];
  if (text === undefined) return strings;
  let current: string | null = null;
  let inText = false;
  let phoneticDepth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        const local = localName(name);
        if (local === "si") current = "";
        else if (local === "rPh") phoneticDepth++;
        else if (local === "t" && phoneticDepth === 0) inText = true;
      },
      ontext(data) {
        if (inText && current !== null) current += data;
      },
      onclosetag(name) {
        const local = localName(name);
        if (local === "si") {
          strings.push(current ?? "");
          current = null;
        } else if (local === "rPh") phoneticDepth--;
        else if (local === "t") inText = false;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(text);
  parser.end();
  return strings;
}

/** NumberFormats maps a cell style index (the `s` attribute) to its number format code and id, and whether its font is monospace. */
interface NumberFormats {
  /** mono: the style's font is a monospace face (Courier, Consolas) and the workbook's default font is not: the cell is code, written as a code span */
  byStyle: Array<{ id: number; code: string; mono: boolean; localeDate: boolean }>;
}

/**
 * LIBREOFFICE_DEFAULT_DATES: the codes LibreOffice (en-US, as the service runs it) writes for a date
 * or date-time in the locale's default format (backslashes dropped, lower case): Excel's built-in 14
 * and 22 of an XLS or XLSB (`m/d/yyyy`), an ODS date cell with no format of its own (`mm/dd/yy`),
 * which a reader sees in their own short date. Read only in a workbook LibreOffice wrote.
 */
const LIBREOFFICE_DEFAULT_DATES = new Set(["mm/dd/yy", "mm/dd/yyyy", "m/d/yy", "m/d/yyyy", "mm/dd/yy hh:mm", "mm/dd/yy hh:mm am/pm", "mm/dd/yyyy hh:mm:ss", "m/d/yyyy h:mm", "m/d/yy h:mm", "m/d/yyyy h:mm:ss"]);

/** BUILTIN_FORMATS are the built-in number format codes that matter for rendering. */
const BUILTIN_FORMATS: Record<number, string> = {
  1: "0",
  2: "0.00",
  3: "#,##0",
  4: "#,##0.00",
  9: "0%",
  10: "0.00%",
  14: "yyyy-mm-dd",
  15: "d-mmm-yy",
  16: "d-mmm",
  17: "mmm-yy",
  18: "h:mm AM/PM",
  19: "h:mm:ss AM/PM",
  20: "h:mm",
  21: "h:mm:ss",
  22: "yyyy-mm-dd h:mm",
  45: "mm:ss",
  46: "[h]:mm:ss",
  47: "mm:ss.0",
  // 5-8 and 41-44 are currency formats whose symbol comes from the reader's locale: a file that uses them names them in numFmts
  37: "#,##0 ;(#,##0)",
  38: "#,##0 ;[Red](#,##0)",
  39: "#,##0.00;(#,##0.00)",
  40: "#,##0.00;[Red](#,##0.00)",
};

function readNumberFormats(pkg: OoxmlPackage, workbookPart: string): NumberFormats {
  const rel = pkg.relsOfType(workbookPart, "styles")[0];
  const styles = child(pkg.xml(rel && !rel.external ? rel.target : "xl/styles.xml"), "styleSheet");
  const custom = new Map<number, string>();
  for (const fmt of descendants(child(styles, "numFmts"), "numFmt")) {
    custom.set(Number(fmt.attrs["numFmtId"]), fmt.attrs["formatCode"] ?? "");
  }
  const fontIsMono = childrenNamed(child(styles, "fonts"), "font").map((font) => isMonoFontName(child(font, "name")?.attrs["val"] ?? ""));
  // a workbook typed in a monospace face throughout has no code cells
  const defaultMono = fontIsMono[0] ?? false;
  const byLibreOffice = /<Application>\s*LibreOffice/i.test(pkg.zip.text("docProps/app.xml")?.slice(0, 4096) ?? "");
  const byStyle = childrenNamed(child(styles, "cellXfs"), "xf").map((xf) => {
    const id = Number(xf.attrs["numFmtId"] ?? 0);
    const code = custom.get(id) ?? BUILTIN_FORMATS[id] ?? "";
    return { id, code, mono: !defaultMono && (fontIsMono[Number(xf.attrs["fontId"] ?? 0)] ?? false), localeDate: byLibreOffice && LIBREOFFICE_DEFAULT_DATES.has(code.replace(/\\/g, "").toLowerCase()) };
  });
  return { byStyle };
}

/** SheetGrid is the non-empty cells of one sheet, rows keyed by 0-based index. */
interface SheetGrid {
  rows: Map<number, string[]>;
  droppedRows: number;
  droppedColumns: boolean;
  /** hyperlinks: the sheet's <hyperlink> elements (cell range, relationship id, in-workbook location) */
  hyperlinks: Array<{ ref: string; relId: string }>;
  /** spans: by a merged area's first row, the columns (first, last; 0-based) it covers: a merged cell fills them on the sheet */
  spans: Map<number, Array<[number, number]>>;
  /** savedStyles: the style of each cell with a saved value (an ODS's volatile cells), "row:column" */
  savedStyles: Map<string, number>;
}

/**
 * readSheet streams a worksheet's cells into a sparse grid. Merged areas keep their value in the
 * first cell only. At most MAX_ROWS_PER_SHEET rows with content are kept; later ones are counted.
 */
function readSheet(xml: string, sharedStrings: string[], formats: NumberFormats, date1904: boolean, saved?: Map<string, string>): SheetGrid {
  const grid: SheetGrid = { rows: new Map(), droppedRows: 0, droppedColumns: false, hyperlinks: [], spans: new Map(), savedStyles: new Map() };
  const merges: string[] = [];
  let rowIndex = -1;
  let colIndex = -1;
  let cell: { type: string; style: number } | null = null;
  let value = "";
  let inline = "";
  let capture: "v" | "t" | null = null;
  let phoneticDepth = 0;
  let rowHasContent = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        switch (localName(name)) {
          case "row": {
            const r = Number(attrs["r"]);
            rowIndex = Number.isInteger(r) && r > 0 ? r - 1 : rowIndex + 1;
            colIndex = -1;
            rowHasContent = false;
            break;
          }
          case "c": {
            const ref = attrs["r"];
            const col = ref ? columnIndex(ref) : -1;
            colIndex = col >= 0 ? col : colIndex + 1;
            cell = { type: attrs["t"] ?? "n", style: Number(attrs["s"] ?? 0) || 0 };
            value = "";
            inline = "";
            break;
          }
          case "v":
            if (cell) capture = "v";
            break;
          case "t":
            if (cell && phoneticDepth === 0) capture = "t";
            break;
          case "rPh":
            phoneticDepth++;
            break;
          case "mergeCell":
            if (attrs["ref"]) merges.push(attrs["ref"]);
            break;
          case "hyperlink": {
            const relId = Object.entries(attrs).find(([key]) => localName(key) === "id" && key.includes(":"))?.[1];
            if (attrs["ref"] && relId) grid.hyperlinks.push({ ref: attrs["ref"], relId });
            break;
          }
        }
      },
      ontext(data) {
        if (capture === "v") value += data;
        else if (capture === "t") inline += data;
      },
      onclosetag(name) {
        switch (localName(name)) {
          case "v":
          case "t":
            capture = null;
            break;
          case "rPh":
            phoneticDepth--;
            break;
          case "c": {
            if (!cell) break;
            if (saved?.has(`${rowIndex}:${colIndex}`)) grid.savedStyles.set(`${rowIndex}:${colIndex}`, cell.style);
            const shown = cellValue(cell.type, value, inline, cell.style, sharedStrings, formats, date1904);
            // text in a monospace face is code (a command, a path); numbers in one are figures
            const isString = cell.type === "s" || cell.type === "inlineStr" || cell.type === "str";
            // a line break typed after a cell's last line (or before its first) is not a line of the cell
            const lines = isString ? shown.replace(/^\s*[\r\n]|[\r\n]\s*$/g, "") : shown;
            const text = isString && lines.trim() && formats.byStyle[cell.style]?.mono ? codeSpans(lines) : lines;
            cell = null;
            // a cell of spaces only shows nothing: it neither fills a column nor joins a block
            if (text.trim() === "") break;
            if (colIndex >= MAX_COLUMNS) {
              grid.droppedColumns = true;
              break;
            }
            let row = grid.rows.get(rowIndex);
            if (!row) {
              if (grid.rows.size >= MAX_ROWS_PER_SHEET) {
                if (!rowHasContent) grid.droppedRows++;
                rowHasContent = true;
                break;
              }
              row = [];
              grid.rows.set(rowIndex, row);
            }
            rowHasContent = true;
            row[colIndex] = text;
            break;
          }
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  clearMergedCells(grid, merges);
  return grid;
}

/**
 * laySavedCells puts an ODS's saved volatile values (odsSaved.ts) in place of what LibreOffice
 * recalculated on load; an empty one empties the cell. A saved date (ISO text) is shown in the
 * cell's date format, as any date cell.
 */
function laySavedCells(grid: SheetGrid, saved: Map<string, string>, formats: NumberFormats, date1904: boolean): void {
  for (const [key, value] of saved) {
    const [r = 0, c = 0] = key.split(":").map(Number);
    const style = grid.savedStyles.get(key);
    const format = style === undefined ? undefined : formats.byStyle[style];
    const serial = format ? serialOfIso(value, date1904) : null;
    const text = format && serial !== null ? formatNumber(String(serial), format.id, format.code, date1904, format.localeDate) : value;
    if (c >= MAX_COLUMNS) continue;
    const row = grid.rows.get(r);
    if (row) row[c] = text;
    else if (text !== "" && grid.rows.size < MAX_ROWS_PER_SHEET) {
      const fresh: string[] = [];
      fresh[c] = text;
      grid.rows.set(r, fresh);
    }
  }
}

/** MAX_MERGE_WORK: cells a sheet's merged areas may visit to be cleared (a hostile sheet of overlapping full-width merges stops here) */
const MAX_MERGE_WORK = 20_000_000;

/** clearMergedCells empties the covered cells of merged areas, so the value shows once, and notes the columns each one spans. */
function clearMergedCells(grid: SheetGrid, merges: string[]): void {
  let work = 0;
  for (const ref of new Set(merges)) {
    const [from, to] = ref.split(":");
    if (!from || !to) continue;
    const r1 = rowOf(from);
    const c1 = columnIndex(from);
    const r2 = rowOf(to);
    const c2 = columnIndex(to);
    if (c2 > c1 && c1 >= 0) {
      const spans = grid.spans.get(r1) ?? [];
      spans.push([c1, Math.min(c2, MAX_COLUMNS - 1)]);
      grid.spans.set(r1, spans);
    }
    // the rows of the area: by index when it is shorter than the sheet, else the sheet's rows with content
    const rows = r2 - r1 < grid.rows.size ? Array.from({ length: Math.max(0, r2 - r1 + 1) }, (_, k) => r1 + k) : [...grid.rows.keys()].filter((r) => r >= r1 && r <= r2);
    for (const r of rows) {
      const row = grid.rows.get(r);
      if (!row) continue;
      const last = Math.min(c2, row.length - 1);
      work += Math.max(1, last - c1 + 1);
      if (work > MAX_MERGE_WORK) return;
      for (let c = Math.max(0, c1); c <= last; c++) {
        if (r === r1 && c === c1) continue;
        row[c] = undefined as unknown as string;
      }
    }
  }
}

/**
 * linkCells writes the cells under an external hyperlink as `[text](url)`, as the sheet shows a
 * link; a cell that shows its own address stays plain text. Links to places inside the workbook
 * are left as text (there is no anchor to point at in the markdown).
 */
function linkCells(grid: SheetGrid, rels: Map<string, Relationship>): void {
  for (const link of grid.hyperlinks) {
    const rel = rels.get(link.relId);
    if (!rel?.external || !/^(https?|ftp|mailto):/i.test(rel.target.trim())) continue;
    const [from = "", to = from] = link.ref.split(":");
    const r1 = rowOf(from);
    const r2 = rowOf(to);
    const c1 = columnIndex(from);
    const c2 = columnIndex(to);
    if (r1 < 0 || c1 < 0) continue;
    const bare = (url: string) => url.trim().replace(/^mailto:/i, "").replace(/\/$/, "").toLowerCase();
    for (const [r, row] of grid.rows) {
      if (r < r1 || r > r2) continue;
      for (let c = c1; c <= Math.min(c2, row.length - 1); c++) {
        const text = row[c];
        if (!text || bare(text) === bare(rel.target)) continue;
        row[c] = `[${text.replace(/([\\[\]])/g, "\\$1")}](${markdownUrl(rel.target)})`;
      }
    }
  }
}

/**
 * sheetComments lists a sheet's cell comments (Excel's notes) under the table, as
 * `- **A22** (author): text`. A threaded comment's legacy copy starts with Excel's explanation
 * ("[Threaded comment] Your version of Excel ... Comment:"); only the comment itself is kept.
 */
function sheetComments(pkg: OoxmlPackage, sheetPart: string): string {
  const rel = pkg.relsOfType(sheetPart, "comments")[0];
  if (!rel || rel.external || !pkg.zip.has(rel.target)) return "";
  const root = child(pkg.xml(rel.target), "comments");
  const authors = childrenNamed(child(root, "authors"), "author").map((a) => textContent(a).trim());
  const items: string[] = [];
  for (const comment of childrenNamed(child(root, "commentList"), "comment")) {
    const body = child(comment, "text");
    const runs = [child(body, "t"), ...childrenNamed(body, "r").map((r) => child(r, "t"))];
    const text = runs
      .map((t) => textContent(t))
      .join("")
      .replace(/^\[Threaded comment\][\s\S]*?\bComment:\s*/, "")
      .replace(/\s+/g, " ")
      .trim();
    if (!text) continue;
    const author = authors[Number(comment.attrs["authorId"])] ?? "";
    const cell = comment.attrs["ref"] ?? "";
    items.push(`- **${escapeText(cell)}**${author ? ` (${escapeText(author)})` : ""}: ${escapeText(text)}`);
  }
  return items.length ? `### Comments\n\n${items.join("\n")}` : "";
}

/** columnIndex turns the letters of a cell reference ("AB12") into a 0-based column; -1 when none. */
function columnIndex(ref: string): number {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const code = ref.charCodeAt(i);
    const upper = code >= 97 && code <= 122 ? code - 32 : code;
    if (upper < 65 || upper > 90) break;
    col = col * 26 + (upper - 64);
  }
  return i === 0 ? -1 : col - 1;
}

function rowOf(ref: string): number {
  const match = /(\d+)$/.exec(ref);
  return match ? Number(match[1]) - 1 : -1;
}

/** SheetBlock is one block of cells a reader sees on its own: a table, or lines of text (a title cell). */
interface SheetBlock {
  kind: "table" | "text";
  /** rows: dense rows over the block's columns, empty rows left out */
  rows: string[][];
  /** first, last: the block's column extent in the sheet (0-based) */
  first: number;
  last: number;
  /** top, bottom: the block's row extent in the sheet (0-based) */
  top: number;
  bottom: number;
}

/** MAX_BLOCKS: a sheet cut into more blocks than this is scattered cells (a form, a drawing in cells), kept as one grid; bounds the work */
const MAX_BLOCKS = 200;

/** wholeGrid: the sheet as one table over all its columns with values, empty rows left out */
function wholeGrid(bands: Array<Array<{ index: number; row: string[] }>>): SheetBlock {
  const rows = bands.flat();
  let first = Number.MAX_SAFE_INTEGER;
  let last = -1;
  for (const { row } of rows) for (let c = 0; c < row.length; c++) if (row[c] !== undefined && row[c] !== "") [first, last] = [Math.min(first, c), Math.max(last, c)];
  return { kind: "table", rows: rows.map(({ row }) => Array.from({ length: last - first + 1 }, (_, k) => row[first + k] ?? "")), first, last, top: rows[0]!.index, bottom: rows[rows.length - 1]!.index };
}

/** MAX_TEXT_BLOCK_ROWS: a block of one column with at most this many rows is text (a title, a note), not a table */
const MAX_TEXT_BLOCK_ROWS = 3;

/**
 * sheetBlocks cuts a sheet into the blocks a reader sees: runs of rows separated by empty rows,
 * and within each run, cells separated by empty columns. A title cell above a table, or two tables
 * side by side, are then apart. Blocks that line up are kept as one table, since a blank spacer row
 * or column inside one table should not cut it: blocks stacked over the same columns, or side by
 * side over the same rows. A block of one column and a few rows is text.
 */
function sheetBlocks(grid: SheetGrid): SheetBlock[] {
  const filled = (v: string | undefined) => v !== undefined && v !== "";
  const bands: Array<Array<{ index: number; row: string[] }>> = [];
  let previous = -2;
  for (const index of [...grid.rows.keys()].sort((a, b) => a - b)) {
    const row = grid.rows.get(index)!;
    if (!row.some(filled)) continue;
    if (index !== previous + 1 || bands.length === 0) bands.push([]);
    bands[bands.length - 1]!.push({ index, row });
    previous = index;
  }
  const stacked: SheetBlock[] = [];
  for (const band of bands) {
    const width = Math.max(...band.map((r) => r.row.length));
    const columnFilled = Array.from({ length: width }, (_, c) => band.some((r) => filled(r.row[c])));
    // a merged cell with a value fills the columns it spans: a table of merged column pairs is not cut at them
    const covered = new Array<number>(width + 1).fill(0);
    for (const { index, row } of band) {
      for (const [c1, c2] of grid.spans.get(index) ?? []) {
        if (c1 >= width || !filled(row[c1])) continue;
        covered[c1]! += 1;
        covered[Math.min(c2, width - 1) + 1]! -= 1;
      }
    }
    for (let c = 0, open = 0; c < width; c++) {
      open += covered[c]!;
      if (open > 0) columnFilled[c] = true;
    }
    const runs: SheetBlock[] = [];
    /** rowsOf: the rows of the band with a value in each run (by the run's first column), for the spacer-column rule */
    const rowsOf = new Map<number, Set<number>>();
    for (let c = 0; c < width; c++) {
      if (!columnFilled[c]) continue;
      let end = c;
      while (end + 1 < width && columnFilled[end + 1]) end++;
      const rowsWith = band.filter((r) => r.row.slice(c, end + 1).some(filled));
      const block: SheetBlock = { kind: "table", rows: [], first: c, last: end, top: rowsWith[0]!.index, bottom: rowsWith[rowsWith.length - 1]!.index };
      const rows = new Set(rowsWith.map((r) => r.index));
      const left = runs[runs.length - 1];
      // Side by side over the same rows: one table with an empty column inside. So too past one or two
      // empty columns (spacers) when both end at the same row and one side's rows are rows of the
      // other, at least half of them (a `Page` column beside `Topic | Period` under a title row; a
      // header's column groups over a table's columns).
      if (left && ((left.top === block.top && left.bottom === block.bottom) || (c - left.last <= MAX_SPACER_COLUMNS + 1 && left.bottom === block.bottom && spacerJoined(rowsOf.get(left.first)!, rows)))) {
        left.last = end;
        left.top = Math.min(left.top, block.top);
        for (const r of rows) rowsOf.get(left.first)!.add(r);
      } else {
        runs.push(block);
        rowsOf.set(c, rows);
      }
      c = end;
    }
    for (const run of runs) {
      run.rows = band.filter((r) => r.index >= run.top && r.index <= run.bottom && r.row.slice(run.first, run.last + 1).some(filled)).map((r) => Array.from({ length: run.last - run.first + 1 }, (_, k) => r.row[run.first + k] ?? ""));
    }
    // read top to bottom, then left to right
    stacked.push(...runs.sort((a, b) => a.top - b.top || a.first - b.first));
  }
  if (stacked.length > MAX_BLOCKS) return [wholeGrid(bands)];
  const blocks: SheetBlock[] = [];
  const filledRows = bands.flat().map((r) => r.index);
  /** emptyRowsBetween: the sheet's empty rows between rows a and b (a < b) */
  const emptyRowsBetween = (a: number, b: number) => b - a - 1 - (lowerBound(filledRows, b) - lowerBound(filledRows, a + 1));
  for (const block of stacked) {
    // the nearest block above over any of the same columns: the same columns continue its table across
    // one empty row (a spacer); two or more empty rows part two tables of several columns (a year's
    // table under another's), not lines of one column
    const above = blocks.findLast((b) => b.first <= block.last && b.last >= block.first);
    if (above && above.first === block.first && above.last === block.last && (block.first === block.last || emptyRowsBetween(above.bottom, block.top) <= MAX_SPACER_ROWS)) {
      above.rows.push(...block.rows);
      above.bottom = block.bottom;
    } else blocks.push(block);
  }
  // One column of a few rows beside other blocks is text (a title, a note); a sheet of one block stays its table.
  if (blocks.length > 1) for (const block of blocks) if (block.first === block.last && block.rows.length <= MAX_TEXT_BLOCK_ROWS) block.kind = "text";
  return blocks;
}

/** MAX_SPACER_ROWS: empty rows between two blocks over the same columns (two or more) that can be a spacer inside one table */
const MAX_SPACER_ROWS = 1;

/** lowerBound: the index of the first item of the sorted list that is at least `value` */
function lowerBound(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** MAX_SPACER_COLUMNS: empty columns between two runs of cells that can be spacers inside one table */
const MAX_SPACER_COLUMNS = 2;

/**
 * spacerJoined: two runs of cells past one or two empty columns, ending at the same row, are one table
 * when the rows of one are rows of the other, at least half of them: the empty columns are spacers
 * inside the table. Two tables side by side that end at other rows (a summary of five rows beside a
 * list of twenty, labels beside a block) stay apart.
 */
function spacerJoined(a: Set<number>, b: Set<number>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const r of small) if (!large.has(r)) return false;
  return small.size * 2 >= large.size;
}

/** cellValue renders one cell as Excel shows it, without number styling but with dates as ISO text. */
function cellValue(type: string, value: string, inline: string, style: number, sharedStrings: string[], formats: NumberFormats, date1904: boolean): string {
  switch (type) {
    case "s":
      return sharedStrings[Number(value)] ?? "";
    case "inlineStr":
      return inline;
    case "str":
    case "e":
      return value || inline;
    case "b":
      return value === "" ? "" : value === "1" || value.toLowerCase() === "true" ? "TRUE" : "FALSE";
    case "d":
      return value.replace(/T00:00:00(\.0+)?Z?$/, "").replace("T", " ").replace(/Z$/, "");
    default: {
      if (value === "") return inline;
      const format = formats.byStyle[style];
      return formatNumber(value, format?.id ?? 0, format?.code ?? "", date1904, format?.localeDate);
    }
  }
}

const DATE_IDS = new Set([14, 15, 16, 17, 22]);
const TIME_IDS = new Set([18, 19, 20, 21, 45, 46, 47]);

/**
 * LOCALE_DATE_IDS: built-in formats a sheet shows in the reader's own short date ("3/15/2023" in the
 * US, "15/03/2023" in Britain, "15.03.2023" in Germany): the file does not say which, so these are
 * written as ISO text, which every reader reads one way.
 */
const LOCALE_DATE_IDS = new Set([14, 22]);

/**
 * formatNumber renders a numeric cell as its format shows it: dates and times in their own format
 * (numberFormat.ts renderDateFormat: "15/03/2023", "Mar-23", "January 6, 2023", "1:30 PM"), ISO
 * where the format is the reader's short date (LOCALE_DATE_IDS, LibreOffice's `localeDate`) or beyond that renderer; other
 * numbers by renderNumberFormat ("€460.00", "1,234.50", "(12.00)", "12.50%"), the plain number where
 * the format is General or beyond it.
 */
export function formatNumber(raw: string, id: number, code: string, date1904: boolean, localeDate = false): string {
  const n = Number(raw);
  if (!Number.isFinite(n)) return raw;
  const kind = DATE_IDS.has(id) ? "date" : TIME_IDS.has(id) ? "time" : id === 22 ? "datetime" : dateKind(code);
  if (kind && n >= 0 && n < 2_958_466) {
    const shown = LOCALE_DATE_IDS.has(id) || localeDate ? null : renderDateFormat(n, code || BUILTIN_FORMATS[id] || "", date1904);
    return shown ?? formatSerialDate(n, kind, date1904);
  }
  return renderNumberFormat(n, code || BUILTIN_FORMATS[id] || "") ?? plainNumber(n);
}

function plainNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  // 15 significant digits is what Excel shows; it hides binary noise such as 0.30000000000000004.
  return String(Number.parseFloat(n.toPrecision(15)));
}

function stripFormatLiterals(code: string): string {
  return code.replace(/"[^"]*"/g, "").replace(/\\./g, "").replace(/_./g, "").replace(/\*./g, "");
}

/** dateKind reads a custom format code: "date", "time", "datetime" or null for non-date formats. */
function dateKind(code: string): "date" | "time" | "datetime" | null {
  if (!code) return null;
  const section = code.split(";")[0] ?? "";
  const elapsed = /\[(h+|m+|s+)\]/i.test(section);
  // a tag holds no "[" (an unclosed run of them is then read in one pass, not once per bracket)
  const plain = stripFormatLiterals(section).replace(/\[[^[\]]*\]/g, "");
  const hasDate = /[dy]/i.test(plain) || (/m/i.test(plain) && !/[hs]/i.test(plain) && !elapsed);
  const hasTime = /[hs]/i.test(plain) || elapsed;
  if (hasDate && hasTime) return "datetime";
  if (hasDate) return "date";
  if (hasTime) return "time";
  return null;
}

/** serialOfIso reads ISO date text ("2021-02-05", "2021-02-05 10:30:00") as the workbook's serial day number; null for other text */
function serialOfIso(text: string, date1904: boolean): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(text);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const serial = (ms - epoch) / 86_400_000;
  // before 1900-03-01 the 1900 system counts a day that never was (its leap-year bug): those dates stay ISO
  return Number.isFinite(serial) && serial >= (date1904 ? 0 : 61) ? serial : null;
}

/** formatSerialDate turns an Excel serial day number into ISO text (1900 system with its leap-year bug, or 1904). */
function formatSerialDate(serial: number, kind: "date" | "time" | "datetime", date1904: boolean): string {
  const dayMs = 86_400_000;
  let epoch: number;
  if (date1904) epoch = Date.UTC(1904, 0, 1);
  else epoch = serial < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30);
  const ms = Math.round((epoch + serial * dayMs) / 1000) * 1000;
  const date = new Date(ms);
  const pad = (v: number) => String(v).padStart(2, "0");
  const day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  if (kind === "date") return day;
  if (kind === "time") {
    if (serial >= 1) {
      const totalSeconds = Math.round(serial * 86_400);
      return `${Math.floor(totalSeconds / 3600)}:${pad(Math.floor(totalSeconds / 60) % 60)}:${pad(totalSeconds % 60)}`;
    }
    return time;
  }
  return `${day} ${time}`;
}

/** drawingOf finds the drawing part of a sheet, if it has one. */
function drawingOf(pkg: OoxmlPackage, sheetPart: string): string | undefined {
  const rel = pkg.relsOfType(sheetPart, "drawing")[0];
  return rel && !rel.external && pkg.zip.has(rel.target) ? rel.target : undefined;
}

/** anchorOf reads the top-left cell of a drawing anchor, for ordering pictures. */
function anchorOf(anchor: XmlElement): { row: number; col: number } {
  const from = child(anchor, "xdr:from");
  return { row: Number(textContent(child(from, "xdr:row"))) || 0, col: Number(textContent(child(from, "xdr:col"))) || 0 };
}

const ANCHORS = ["xdr:twoCellAnchor", "xdr:oneCellAnchor", "xdr:absoluteAnchor"];

/** sheetPictures renders the pictures of a sheet's drawing (alt text plus OCR placeholder), top to bottom. */
function sheetPictures(pkg: OoxmlPackage, sheetPart: string, images: ImageCollector): string[] {
  const drawing = drawingOf(pkg, sheetPart);
  if (!drawing) return [];
  const root = child(pkg.xml(drawing), "xdr:wsDr");
  const rels = pkg.rels(drawing);
  const found: Array<{ row: number; col: number; text: string }> = [];
  for (const anchor of childrenNamed(root).filter((a) => ANCHORS.includes(a.name))) {
    for (const pic of descendants(anchor, "xdr:pic")) {
      const cNvPr = path(pic, "xdr:nvPicPr", "xdr:cNvPr");
      const alt = cNvPr?.attrs["descr"] || cNvPr?.attrs["title"] || "";
      const rel = rels.get(firstDescendant(pic, "a:blip")?.attrs["r:embed"] ?? "");
      if (!rel || rel.external || !pkg.zip.has(rel.target)) continue;
      const at = anchorOf(anchor);
      found.push({ ...at, text: `![${imageAlt(alt)}](${baseName(rel.target)})${images.token(rel.target, false)}` });
    }
  }
  found.sort((a, b) => a.row - b.row || a.col - b.col);
  return found.map((f) => f.text);
}

/** sheetCharts renders the charts of a sheet's (or chart sheet's) drawing. */
function sheetCharts(pkg: OoxmlPackage, sheetPart: string): string[] {
  const drawing = drawingOf(pkg, sheetPart);
  if (!drawing) return [];
  const rels = pkg.rels(drawing);
  const out: string[] = [];
  for (const chart of descendants(pkg.xml(drawing), "c:chart")) {
    const rel = rels.get(chart.attrs["r:id"] ?? "");
    if (rel && !rel.external) {
      const rendered = renderChartPart(pkg, rel.target);
      if (rendered) out.push(rendered);
    }
  }
  return out;
}
