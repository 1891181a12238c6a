/**
 * BodySpool reads request bodies under the matched operation's size limit. A declared
 * Content-Length over the limit is refused before anything is read. A body of unknown length
 * (chunked) is copied to a file in the data dir while it is counted and cut off at the limit, so an
 * oversized upload never sits in memory. It runs only after the key was checked (see
 * mountOperation), and the number of spools at once is capped per key and in total, so nobody
 * can make the server write to disk at will.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../errors";
import { attachContext, type RequestContext } from "./context";

/** RETRY_AFTER_SPOOL_S is the Retry-After of a refused spool: uploads take seconds, not minutes. */
export const RETRY_AFTER_SPOOL_S = 2;

export interface BodySpoolOptions {
  /** dir: where chunked bodies are spooled (DATA/tmp/bodies) */
  dir: string;
  /** maxTotal: spools at once, all keys together (--max-spools) */
  maxTotal: number;
  /** maxPerKey: spools at once for one key (--max-spools-per-key) */
  maxPerKey: number;
  /** maxFileBytes: the largest file (--max-upload-mb), named in the 413 of bodies that carry files */
  maxFileBytes: number;
}

/** megabytes writes a byte count in MB (10^6 bytes), with a decimal only when it is not whole. */
function megabytes(bytes: number): string {
  const mb = bytes / 1_000_000;
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/**
 * tooLarge: the 413 of a body past its operation's limit. A multipart limit is one file plus 1 MB of
 * form fields (operation.ts bodyLimitOf); the message says so, in one unit, rather than two numbers
 * that seem to disagree.
 */
function tooLarge(limit: number, maxFileBytes: number): AppError {
  const formLimit = limit === maxFileBytes + 1_000_000;
  return new AppError(
    "payload_too_large",
    formLimit
      ? `The request body is over ${megabytes(limit)}, this operation's limit: a file of at most ${megabytes(maxFileBytes)} plus ${megabytes(limit - maxFileBytes)} of other form fields. Send a smaller file.`
      : `The request body is over ${megabytes(limit)}, this operation's limit.`,
  );
}

export class BodySpool {
  private total = 0;
  private readonly perKey = new Map<string, number>();

  constructor(private readonly options: BodySpoolOptions) {}

  /** active is the number of bodies being spooled right now (for tests and metrics) */
  get active(): number {
    return this.total;
  }

  /**
   * bounded returns a request whose body is within `limit` bytes: the request itself when its
   * Content-Length says so, else a copy holding the spooled body. Throws payload_too_large, and
   * for a chunked body over the caps rate_limited (this key) or overloaded (the server).
   */
  async bounded(request: Request, ctx: RequestContext, limit: number): Promise<Request> {
    if (!request.body) return request;
    const declared = Number(request.headers.get("content-length") ?? NaN);
    if (declared > limit) throw tooLarge(limit, this.options.maxFileBytes);
    if (Number.isFinite(declared)) return request;
    const release = this.acquire(ctx.key?.id ?? "(anonymous)");
    try {
      return await this.spool(request, ctx, limit);
    } finally {
      release();
    }
  }

  /** acquire takes one spool slot for `keyId`, or refuses: the key's own cap first (its fix is to wait for its own uploads), then the server's. */
  private acquire(keyId: string): () => void {
    const mine = this.perKey.get(keyId) ?? 0;
    const retry = { headers: { "Retry-After": String(RETRY_AFTER_SPOOL_S) } };
    if (mine >= this.options.maxPerKey) {
      throw new AppError("rate_limited", `This key already has ${mine} uploads without Content-Length streaming in (--max-spools-per-key); send Content-Length, or retry once one has finished.`, retry);
    }
    if (this.total >= this.options.maxTotal) {
      throw new AppError("overloaded", `The server is receiving ${this.total} uploads without Content-Length at once (--max-spools); send Content-Length, or retry in a few seconds.`, retry);
    }
    this.total++;
    this.perKey.set(keyId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.perKey.get(keyId) ?? 1) - 1;
      if (left > 0) this.perKey.set(keyId, left);
      else this.perKey.delete(keyId);
    };
  }

  /**
   * spool copies the body to a file, counting bytes as they arrive and stopping at `limit`, then
   * hands back a request holding those bytes; the file is removed before it returns. (The
   * operation reads a body whole (operation.ts readBody), hence the bytes rather than the file.)
   */
  private async spool(request: Request, ctx: RequestContext, limit: number): Promise<Request> {
    mkdirSync(this.options.dir, { recursive: true, mode: 0o700 });
    const path = join(this.options.dir, `${ctx.id}.body`);
    const sink = Bun.file(path).writer();
    let seen = 0;
    const reader = request.body!.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        seen += next.value.byteLength;
        if (seen > limit) throw tooLarge(limit, this.options.maxFileBytes);
        sink.write(next.value); // the writer buffers and flushes by itself
      }
      await sink.end();
      const spooled = new Request(request.url, { method: request.method, headers: request.headers, body: await Bun.file(path).bytes(), signal: request.signal });
      attachContext(spooled, ctx);
      return spooled;
    } catch (error) {
      await reader.cancel().catch(() => {});
      await Promise.resolve(sink.end()).catch(() => {});
      throw error;
    } finally {
      rmSync(path, { force: true });
    }
  }
}
