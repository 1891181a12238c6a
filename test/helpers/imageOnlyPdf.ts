/**
 * imageOnlyPdf writes a scanned PDF: each page one JPEG and nothing else (no text layer), the page
 * the size of its image at `dpi` (the product's writer, src/convert/scanPages.ts). Used by the
 * scanned-PDF tests and bench/scan-structure.ts. `rotate`: the pages' /Rotate (0, 90, 180, 270);
 * `flip`: the image drawn upside down by its matrix.
 */
import sharp from "sharp";
import { imageOnlyPdf as writePdf } from "../../src/convert/scanPages";

export async function imageOnlyPdf(jpegs: Uint8Array[], dpi: number, options: { rotate?: number; flip?: boolean } = {}): Promise<Uint8Array> {
  const pages = await Promise.all(
    jpegs.map(async (data) => {
      const meta = await sharp(data).metadata();
      return { width: meta.width!, height: meta.height!, dpi, data, filter: "DCTDecode" as const, grey: meta.channels === 1, ...options };
    }),
  );
  return writePdf(pages);
}
