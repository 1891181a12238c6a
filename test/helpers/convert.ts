/**
 * convertContext is the converter context of a unit test: generous limits, no browser page options
 * beyond the defaults, the tools the test hands in, and a deadline.
 */
import type { ConvertContext } from "../../src/convert/types";

export function convertContext(
  o: { tools?: object; limits?: Partial<ConvertContext["limits"]>; page?: Partial<ConvertContext["page"]>; timeoutMs?: number } = {},
): ConvertContext {
  return {
    signal: AbortSignal.timeout(o.timeoutMs ?? 60_000),
    limits: { maxDecompressedBytes: 200e6, maxPixels: 100e6, maxPages: 2000, ...o.limits },
    page: { mainContent: true, waitMs: 0, ...o.page },
    tools: (o.tools ?? {}) as ConvertContext["tools"],
  };
}
