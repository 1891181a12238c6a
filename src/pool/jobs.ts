/**
 * JOBS are the functions that run in worker threads, registered by name. Each takes a plain,
 * structured-cloneable argument and returns one. Capability modules add their CPU-heavy steps here.
 */
import sharp from "sharp";

export const JOBS = {
  /** selfTest renders a small gradient with sharp and encodes it as JPEG: proves libvips loads in a worker. */
  async selfTest(_: Record<string, never>): Promise<{ format: string; width: number; height: number; bytes: number; vips: string }> {
    const { data, info } = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 120, b: 200 } } })
      .jpeg({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    return { format: info.format, width: info.width, height: info.height, bytes: data.length, vips: sharp.versions.vips };
  },
  /** imageInfo reads an image's header (dimensions, format) without decoding its pixels. */
  async imageInfo(args: { bytes: Uint8Array }): Promise<{ format?: string; width?: number; height?: number; pages?: number }> {
    const meta = await sharp(args.bytes).metadata();
    return { format: meta.format, width: meta.width, height: meta.height, pages: meta.pages };
  },
} as const;

export type JobName = keyof typeof JOBS;
export type JobArgs<N extends JobName> = Parameters<(typeof JOBS)[N]>[0];
export type JobResult<N extends JobName> = Awaited<ReturnType<(typeof JOBS)[N]>>;
