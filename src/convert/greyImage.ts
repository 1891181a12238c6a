/**
 * greyImage: the 8-bit grey image the OCR preparation modules pass between them (ocrPrep, ocrSkew,
 * ocrLight, ocrGround), its ink threshold, and the sliding maximum and minimum their closings use.
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

/**
 * slideExtreme: the largest (`largest`) or smallest value of each cell's square of side 2 `reach` + 1
 * (clipped at the edges) of a `width` x `height` grid, as a pass along rows then one along columns;
 * each pass is linear in the cells whatever `reach` (a monotone queue of the window's candidates).
 */
export function slideExtreme(data: Uint8Array, width: number, height: number, reach: number, largest: boolean): Uint8Array {
  const across = new Uint8Array(data.length);
  const queue = new Int32Array(Math.max(width, height));
  for (let y = 0; y < height; y++) slideLine(data, across, y * width, 1, width, reach, largest, queue);
  const out = new Uint8Array(data.length);
  for (let x = 0; x < width; x++) slideLine(across, out, x, width, height, reach, largest, queue);
  return out;
}

/** slideLine: slideExtreme along one row or column (`start`, `step`, `n` cells) */
function slideLine(from: Uint8Array, to: Uint8Array, start: number, step: number, n: number, reach: number, largest: boolean, queue: Int32Array): void {
  let head = 0;
  let tail = 0;
  for (let k = 0; k < n + reach; k++) {
    if (k < n) {
      const v = from[start + k * step]!;
      while (tail > head && (largest ? v >= from[start + queue[tail - 1]! * step]! : v <= from[start + queue[tail - 1]! * step]!)) tail--;
      queue[tail++] = k;
    }
    const centre = k - reach;
    if (centre < 0) continue;
    while (queue[head]! < centre - reach) head++;
    to[start + centre * step] = from[start + queue[head]! * step]!;
  }
}
