/**
 * greyImage: the 8-bit grey image the OCR preparation modules pass between them (ocrPrep, ocrSkew,
 * ocrLight) and its ink threshold.
 */

/** GreyImage is 8-bit grey pixels, row by row (0 = black). */
export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** otsuThreshold is the grey level that best separates ink from paper (Otsu's method); pixels <= it are ink. */
export function otsuThreshold(image: GreyImage): number {
  const histogram = new Float64Array(256);
  const { data } = image;
  for (let i = 0; i < data.length; i++) histogram[data[i]!]!++;
  let total = 0;
  for (let level = 0; level < 256; level++) total += level * histogram[level]!;
  let below = 0;
  let belowSum = 0;
  let best = -1;
  let threshold = 127;
  for (let level = 0; level < 256; level++) {
    below += histogram[level]!;
    if (below === 0) continue;
    const above = data.length - below;
    if (above === 0) break;
    belowSum += level * histogram[level]!;
    const between = below * above * (belowSum / below - (total - belowSum) / above) ** 2;
    if (between > best) {
      best = between;
      threshold = level;
    }
  }
  return threshold;
}
