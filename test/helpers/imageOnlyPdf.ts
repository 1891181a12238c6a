/**
 * imageOnlyPdf writes a scanned PDF: each page one JPEG and nothing else (no text layer), the page
 * the size of its image at `dpi`. Used by the scanned-PDF tests and bench/scan-structure.ts.
 * `rotate`: the pages' /Rotate (0, 90, 180, 270); `flip`: the image drawn upside down by its matrix.
 */
import sharp from "sharp";

export async function imageOnlyPdf(jpegs: Uint8Array[], dpi: number, options: { rotate?: number; flip?: boolean } = {}): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (chunk: string | Uint8Array) => {
    const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    parts.push(bytes);
    length += bytes.length;
  };
  const object = (id: number, body: string | Uint8Array[], dict = "") => {
    offsets[id] = length;
    if (typeof body === "string") push(`${id} 0 obj\n${body}\nendobj\n`);
    else {
      push(`${id} 0 obj\n${dict}\nstream\n`);
      for (const b of body) push(b);
      push("\nendstream\nendobj\n");
    }
  };
  push("%PDF-1.4\n");
  const pageIds = jpegs.map((_, i) => 3 + i * 3);
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${jpegs.length} >>`);
  for (let i = 0; i < jpegs.length; i++) {
    const bytes = jpegs[i]!;
    const meta = await sharp(bytes).metadata();
    const [w, h] = [meta.width!, meta.height!];
    const [pw, ph] = [(w * 72) / dpi, (h * 72) / dpi];
    const id = pageIds[i]!;
    const content = options.flip ? `q ${pw.toFixed(2)} 0 0 ${(-ph).toFixed(2)} 0 ${ph.toFixed(2)} cm /Im0 Do Q` : `q ${pw.toFixed(2)} 0 0 ${ph.toFixed(2)} 0 0 cm /Im0 Do Q`;
    object(id, `<< /Type /Page /Parent 2 0 R${options.rotate ? ` /Rotate ${options.rotate}` : ""} /MediaBox [0 0 ${pw.toFixed(2)} ${ph.toFixed(2)}] /Resources << /XObject << /Im0 ${id + 1} 0 R >> >> /Contents ${id + 2} 0 R >>`);
    object(id + 1, [bytes], `<< /Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /${meta.channels === 1 ? "DeviceGray" : "DeviceRGB"} /BitsPerComponent 8 /Filter /DCTDecode /Length ${bytes.length} >>`);
    object(id + 2, [new TextEncoder().encode(content)], `<< /Length ${content.length} >>`);
  }
  const xref = length;
  const count = 3 + jpegs.length * 3;
  push(`xref\n0 ${count}\n0000000000 65535 f \n${Array.from({ length: count - 1 }, (_, i) => `${String(offsets[i + 1]).padStart(10, "0")} 00000 n \n`).join("")}`);
  push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}
