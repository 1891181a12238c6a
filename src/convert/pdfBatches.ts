/**
 * pageBatches splits pages 1..total into the ranges the PDF converter extracts as one worker job
 * each: about half the document each, 20 to 200 pages. Both sides use it: the converter (pdf.ts) to
 * plan the jobs, and the worker job (pdfText.ts) to find its own range from the page count it reads.
 */
export function pageBatches(total: number): Array<[number, number]> {
  const size = Math.min(200, Math.max(20, Math.ceil(total / 2)));
  const batches: Array<[number, number]> = [];
  for (let first = 1; first <= total; first += size) batches.push([first, Math.min(total, first + size - 1)]);
  return batches;
}
