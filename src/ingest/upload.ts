/**
 * Upload is an uploaded file part as the server received it: a view of the request body (no copy),
 * its filename and its declared Content-Type. Multipart bodies are read once into one buffer
 * (src/http/multipart.ts) and every file part is a window on it, handed on to ingest and from there to
 * the tools: a 2 MB photo is not copied again on the server's main thread.
 *
 * UploadedFile is what a file field holds: an Upload from an HTTP body, or a File from the CLI, the
 * MCP tools or a stored task input.
 */
export class Upload {
  /**
   * bytes: the part's content, a view of the request body: read it, never write to it
   * name: the client's filename as sent ("" when it sent filename="")
   * type: the part's Content-Type as sent, "" when it sent none
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly name: string,
    readonly type: string,
  ) {}

  /** size: the content's length in bytes */
  get size(): number {
    return this.bytes.byteLength;
  }

  /** arrayBuffer: a copy of the content, as File.arrayBuffer() gives (prefer bytesOf, which does not copy) */
  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.bytes.slice().buffer;
  }
}

export type UploadedFile = Upload | File;

/** isUploadedFile says whether a field's value is a file (an Upload or any Blob, File included). */
export function isUploadedFile(value: unknown): value is UploadedFile {
  return value instanceof Upload || (typeof Blob !== "undefined" && value instanceof Blob);
}

/** bytesOf is a file's content: an Upload's view as it is, a File's read into memory. */
export async function bytesOf(file: UploadedFile | Blob): Promise<Uint8Array> {
  return file instanceof Upload ? file.bytes : new Uint8Array(await file.arrayBuffer());
}

/** filenameOf is a file's name as the client sent it; "" for a Blob without one. */
export function filenameOf(file: UploadedFile | Blob): string {
  return file instanceof Upload || file instanceof File ? file.name : "";
}
