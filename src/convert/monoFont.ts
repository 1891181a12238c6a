/**
 * MONO_FONT: a monospace face by its name, as PDFs embed it and office documents ask for it
 * ("Courier-Bold", "Courier New", TeX's "CMTT10" and "SFTT1000", "LMMono10-Regular", "Consolas",
 * "Inconsolata", "DejaVu Sans Mono", "Menlo", "Source Code Pro", "Fira Code", "Cascadia Code"; not
 * "Monotype Corsiva"). Code is set in such a face:
 * the PDF layout (pdfCode.ts) and the DOCX converter write it as fenced code.
 */
const MONO_FONT = /courier|mono(?!type)|consol|inconsolata|menlo|source ?code|fira ?code|cascadia|^(?:CM|SF|EC|TC)(?:I|SL)?TT\d|typewriter|^LMTT|^rm-lmtt/i;

/** isMonoFontName: the font's name, after a PDF subset tag ("ABCDEF+"), names a monospace face */
export function isMonoFontName(name: string): boolean {
  return MONO_FONT.test(name.replace(/^[A-Z]{6}\+/, ""));
}
