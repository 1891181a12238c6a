/**
 * Typeset pages read as scans are: rendered to a 150 dpi grey PNG by pdftoppm (the converter's
 * own scan resolution) and read by the real tesseract, for the OCR tests.
 */
import { renderPdfPage } from "../../src/tools/poppler";
import type { OcrEngine, OcrResult } from "../../src/tools/types";
import { typesetPdf, type TypesetRun } from "./typesetPdf";

/** scanAt150: one typeset page as a 150 dpi grey PNG */
export async function scanAt150(runs: TypesetRun[]): Promise<Uint8Array> {
  return new Uint8Array(await renderPdfPage(typesetPdf([runs]), { page: 1, dpi: 150, gray: true, timeoutMs: 60_000, maxBytes: 50_000_000 }, AbortSignal.timeout(60_000)));
}

/** readAt150: a typeset page rendered as a scan is and read by `engine` with its page segmentation */
export async function readAt150(engine: OcrEngine, runs: TypesetRun[]): Promise<OcrResult> {
  return engine.recognize(await scanAt150(runs), AbortSignal.timeout(60_000), { segmentation: "auto", dpi: 150 });
}

/** COUNTY_FIGURES: a statistical table, header first: a county's households by year */
export const COUNTY_FIGURES = [
  ["County", "1990", "2000", "2010", "2020"],
  ["Adams", "12,408", "13,112", "14,986", "15,204"],
  ["Benton", "8,315", "9,027", "9,844", "10,391"],
  ["Clark", "41,762", "45,390", "49,118", "52,607"],
  ["Dale", "5,903", "6,148", "6,377", "6,512"],
  ["Essex", "22,480", "23,915", "25,066", "26,738"],
  ["Grant", "17,236", "18,004", "18,995", "19,873"],
  ["Hale", "3,871", "3,990", "4,102", "4,256"],
  ["Total", "111,975", "119,586", "128,488", "135,581"],
];
