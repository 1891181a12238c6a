/**
 * typesetPdf writes a small PDF by hand: text runs placed at points on A4 pages, in the standard
 * fonts (not embedded: a reader's own Times and Helvetica), for layouts that LibreOffice cannot
 * print with the fonts of this machine (DejaVu only), such as a sans-serif title over a serif body
 * in fonts whose names give no weight.
 */

/** TypesetRun: one run of text, its baseline's left end at (x, y) in PDF points from the page's bottom left */
export interface TypesetRun {
  font: (typeof FONTS)[number];
  size: number;
  x: number;
  y: number;
  text: string;
}

/** FONTS: the standard fonts a run may use (a bold face named so, and a monospace one for code) */
const FONTS = ["Times-Roman", "Helvetica", "Times-Bold", "Courier"] as const;

/** typesetPdf returns the bytes of a PDF of A4 pages (595 x 842 pt), one list of runs per page; text is Latin-1. */
export function typesetPdf(pages: TypesetRun[][]): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) - 1 + 1; // object numbers start at 1
  const catalog = add("");
  const pageTree = add("");
  const fontRefs = FONTS.map((name) => add(`<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding >>`));
  const fontDict = FONTS.map((_, i) => `/F${i + 1} ${fontRefs[i]} 0 R`).join(" ");
  const kids: number[] = [];
  for (const runs of pages) {
    const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
    const content = runs.map((run) => `BT /F${FONTS.indexOf(run.font) + 1} ${run.size} Tf 1 0 0 1 ${run.x} ${run.y} Tm (${escape(run.text)}) Tj ET`).join("\n");
    const stream = add(`<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 595 842] /Resources << /Font << ${fontDict} >> >> /Contents ${stream} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pageTree} 0 R >>`;
  objects[pageTree - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, "latin1"));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, "latin1");
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, "latin1"));
}
