/** Small readers of untyped values (parsed JSON, model answers) and number formatting shared across modules. */

/** isPlainObject: a JSON object (not null, not an array). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** round3 rounds to three decimals, as confidences and scores are reported. */
export function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** describeBytes renders a byte count for messages: "50 MB" (10^6 bytes) from 1 MB up, else "512 bytes". */
export function describeBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${Number((bytes / 1_000_000).toFixed(1))} MB`;
  return `${bytes} bytes`;
}
