// src/http/multipart.ts: multipart/form-data parsed from one buffer, file parts as views of it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "./helpers/server";
import { boundaryOf, MultipartError, parseMultipart, type FormPart } from "../src/http/multipart";
import { bytesOf, Upload } from "../src/ingest/upload";

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);

/** fieldsOf turns parts into comparable plain values: text as is, files as {name, type, text}. */
function fieldsOf(parts: FormPart[]): [string, unknown][] {
  return parts.map(({ name, value }) => [name, typeof value === "string" ? value : { name: value.name, type: value.type, text: new TextDecoder().decode(value.bytes) }]);
}

/** bodyOf encodes a body as a client sends it: each part's header lines, then its content. */
function bodyOf(boundary: string, parts: { headers: string[]; content: string | Uint8Array }[], close = `--${boundary}--\r\n`): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    chunks.push(bytes(`--${boundary}\r\n${part.headers.map((h) => `${h}\r\n`).join("")}\r\n`));
    chunks.push(typeof part.content === "string" ? bytes(part.content) : part.content);
    chunks.push(bytes("\r\n"));
  }
  chunks.push(bytes(close));
  return Buffer.concat(chunks);
}

describe("boundaryOf", () => {
  test("reads the boundary unquoted, quoted (with escapes) and after other parameters", () => {
    expect(boundaryOf("multipart/form-data; boundary=----WebKitFormBoundaryX1")).toBe("----WebKitFormBoundaryX1");
    expect(boundaryOf('multipart/form-data; boundary="a b:c"')).toBe("a b:c");
    expect(boundaryOf('multipart/form-data; boundary="q\\"x"')).toBe('q"x');
    expect(boundaryOf("multipart/form-data; charset=utf-8; BOUNDARY=abc; foo=bar")).toBe("abc");
  });

  test("is null without a boundary or with an empty one", () => {
    expect(boundaryOf("multipart/form-data")).toBeNull();
    expect(boundaryOf("multipart/form-data; boundary=")).toBeNull();
    expect(boundaryOf('multipart/form-data; boundary=""')).toBeNull();
  });
});

describe("parseMultipart", () => {
  test("reads text fields and files in body order, the file as a view of the body (no copy)", () => {
    const photo = new Uint8Array([0xff, 0xd8, 0x0d, 0x0a, 0x2d, 0x2d, 0xff, 0xd9]); // CRLF-- inside the content
    const body = bodyOf("XyZ", [
      { headers: ['Content-Disposition: form-data; name="width"'], content: "600" },
      { headers: ['Content-Disposition: form-data; name="file"; filename="photo.jpg"', "Content-Type: image/jpeg"], content: photo },
    ]);
    const parts = parseMultipart(body, "XyZ");
    expect(parts.map((p) => p.name)).toEqual(["width", "file"]);
    expect(parts[0]!.value).toBe("600");
    const file = parts[1]!.value as Upload;
    expect(file).toBeInstanceOf(Upload);
    expect([file.name, file.type, file.size]).toEqual(["photo.jpg", "image/jpeg", photo.length]);
    expect([...file.bytes]).toEqual([...photo]);
    expect(file.bytes.buffer).toBe(body.buffer); // a window on the body
    body[file.bytes.byteOffset] = 0; // so a change of the body shows through
    expect(file.bytes[0]).toBe(0);
  });

  test("keeps several files under one name, and an empty file (filename=\"\", no content)", () => {
    const body = bodyOf("b", [
      { headers: ['Content-Disposition: form-data; name="files"; filename="a.txt"', "Content-Type: text/plain"], content: "first" },
      { headers: ['Content-Disposition: form-data; name="files"; filename="b.csv"'], content: "x,y\r\n1,2" },
      { headers: ['Content-Disposition: form-data; name="empty"; filename=""', "Content-Type: application/octet-stream"], content: "" },
      { headers: ['Content-Disposition: form-data; name="note"'], content: "" },
    ]);
    expect(fieldsOf(parseMultipart(body, "b"))).toEqual([
      ["files", { name: "a.txt", type: "text/plain", text: "first" }],
      ["files", { name: "b.csv", type: "", text: "x,y\r\n1,2" }],
      ["empty", { name: "", type: "application/octet-stream", text: "" }],
      ["note", ""],
    ]);
  });

  test("reads quoted names with escapes, unquoted names, filename* (RFC 8187) and UTF-8 names", () => {
    const body = bodyOf("b", [
      { headers: ['content-disposition: FORM-DATA; NAME="a;b"; filename="x;y \\"q\\".txt"'], content: "1" },
      { headers: ["Content-Disposition: form-data; name=plain; filename=plain.txt"], content: "2" },
      { headers: ["Content-Disposition: form-data; name=\"f\"; filename=\"fallback.txt\"; filename*=UTF-8''r%C3%A9sum%C3%A9%20v2.pdf"], content: "3" },
      { headers: ["Content-Disposition: form-data; name=\"g\"; filename*=iso-8859-1'en'caf%E9.txt"], content: "4" },
      { headers: ['Content-Disposition: form-data; name="h"; filename="naïve 日本.txt"'], content: "5" },
      { headers: ['Content-Disposition: form-data; name="i"; filename="C:\\dir\\a.txt"'], content: "6" },
    ]);
    expect(fieldsOf(parseMultipart(body, "b")).map(([name, value]) => [name, (value as { name: string }).name])).toEqual([
      ["a;b", 'x;y "q".txt'],
      ["plain", "plain.txt"],
      ["f", "résumé v2.pdf"],
      ["g", "café.txt"],
      ["h", "naïve 日本.txt"],
      ["i", "C:\\dir\\a.txt"],
    ]);
  });

  test("skips a preamble, transport padding after boundaries and the epilogue; a part with empty headers or no name is dropped", () => {
    const text =
      "This is the preamble.\r\n--b  \t\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\none\r\n--b\r\n\r\nno headers\r\n--b\r\nContent-Type: text/plain\r\n\r\nno disposition\r\n--b\r\nContent-Disposition: attachment; name=\"c\"\r\n\r\nnot form-data\r\n--b\r\nContent-Disposition: form-data; name=\"d\"\r\n\r\ntwo\r\n--b--\r\nepilogue --b\r\n";
    expect(fieldsOf(parseMultipart(bytes(text), "b"))).toEqual([
      ["a", "one"],
      ["d", "two"],
    ]);
  });

  test("a body with only the closing delimiter has no parts", () => {
    expect(parseMultipart(bytes("--b--\r\n"), "b")).toEqual([]);
  });

  test("the boundary text inside content is content unless it follows CRLF", () => {
    const body = bodyOf("b", [{ headers: ['Content-Disposition: form-data; name="t"'], content: "--b is mentioned, and x\n--b too" }]);
    expect(fieldsOf(parseMultipart(body, "b"))).toEqual([["t", "--b is mentioned, and x\n--b too"]]);
  });

  test("a body cut off anywhere fails with MultipartError (missing final boundary)", () => {
    const full = bodyOf("b", [
      { headers: ['Content-Disposition: form-data; name="a"'], content: "one" },
      { headers: ['Content-Disposition: form-data; name="file"; filename="x.bin"'], content: "0123456789" },
    ]);
    const closeAt = full.length - "--\r\n".length; // "...\r\n--b" without its "--": cut after the last boundary line
    for (let cut = 0; cut < closeAt; cut++) {
      expect(() => parseMultipart(full.subarray(0, cut), "b")).toThrow(MultipartError);
    }
    expect(() => parseMultipart(bytes(""), "b")).toThrow("no boundary line");
    expect(() => parseMultipart(bytes('--b\r\nContent-Disposition: form-data; name="f"\r\n\r\nhi\r\n'), "b")).toThrow("missing final boundary");
    expect(() => parseMultipart(bytes('--b\r\nContent-Disposition: form-data; name="f"\r\n\r\nhi\r\n--b\r\n'), "b")).toThrow("missing final boundary");
    expect(() => parseMultipart(bytes("--bX\r\n\r\n\r\n--b--"), "b")).toThrow(MultipartError); // a longer boundary is not ours
  });

  test("what fetch's FormData sends parses to the same fields, whatever the chunks it arrived in", async () => {
    const photo = new Uint8Array(300_000).map((_, i) => (i * 7919 + (i >> 8)) & 0xff); // binary with many CR, LF and '-'
    const form = new FormData();
    form.append("width", "600");
    form.append("file", new File([photo], "photo 1.jpg", { type: "image/jpeg" }));
    form.append("file", new File([bytes("second")], "notes.txt"));
    form.append("urls", '["https://example.com/a"]');
    const request = new Request("http://localhost/", { method: "POST", body: form });
    const boundary = boundaryOf(request.headers.get("content-type")!)!;
    const body = new Uint8Array(await request.arrayBuffer());
    // a stream of awkward chunks (1 byte, across CRLF and boundaries, 64 KB) read into one buffer, as the server reads it
    const sizes = [1, 2, 3, 5, 7, 11, 13, 65_536];
    const chunks: Uint8Array[] = [];
    for (let at = 0, i = 0; at < body.length; i++) {
      const size = sizes[i % sizes.length]!;
      chunks.push(body.slice(at, at + size));
      at += size;
    }
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const received = await new Response(stream).bytes();
    const parts = parseMultipart(received, boundary);
    expect(parts.map((p) => p.name)).toEqual(["width", "file", "file", "urls"]);
    expect(parts[0]!.value).toBe("600");
    const [first, second] = [parts[1]!.value as Upload, parts[2]!.value as Upload];
    expect([first.name, first.type, first.size]).toEqual(["photo 1.jpg", "image/jpeg", photo.length]);
    expect(Buffer.from(first.bytes).equals(Buffer.from(photo))).toBe(true);
    expect([second.name, new TextDecoder().decode(await bytesOf(second))]).toEqual(["notes.txt", "second"]);
    expect(parts[3]!.value).toBe('["https://example.com/a"]');
  });
});

describe("Upload", () => {
  test("arrayBuffer is a copy of the part, bytesOf the view itself", async () => {
    const body = bytes("__content__");
    const upload = new Upload(body.subarray(2, 9), "a.txt", "text/plain");
    const copy = new Uint8Array(await upload.arrayBuffer());
    expect(new TextDecoder().decode(copy)).toBe("content");
    expect(copy.buffer).not.toBe(body.buffer);
    expect((await bytesOf(upload)).buffer).toBe(body.buffer);
    expect(upload.size).toBe(7);
  });
});

describe("multipart bodies over HTTP (the real server)", () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startServer();
    key = (await server.key("enterprise")).key;
  });
  afterAll(() => server.stop());

  const UNREADABLE = "Could not read the multipart/form-data body; send fields with curl -F name=value and files with -F file=@path.";
  const post = (body: BodyInit, contentType: string, extra: Record<string, string> = {}) =>
    fetch(`${server.url}/api/v1/markdown/convert`, { method: "POST", headers: { "X-API-Key": key, "content-type": contentType, ...extra }, body });

  test("a body cut off before its closing boundary, or a Content-Type without a boundary, is 400 bad_request with the form's message", async () => {
    const cut = '--b\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n';
    for (const [body, type] of [
      [cut, "multipart/form-data; boundary=b"],
      [cut, "multipart/form-data"],
    ] as const) {
      const r = await post(body, type);
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual({ success: false, error: "bad_request", detail: UNREADABLE });
    }
  });

  test("an upload with a quoted boundary and a filename* arrives whole, chunked (spooled) or with Content-Length", async () => {
    const text = "Quarterly notes\n--b is not a boundary here (no CR before it)\r\n".repeat(2000);
    const body =
      `preamble\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="x.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--b--\r\n`;
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = encoder.encode(body);
        for (let at = 0; at < bytes.length; at += 7_001) controller.enqueue(bytes.slice(at, at + 7_001));
        controller.close();
      },
    });
    for (const sent of [body, chunked]) {
      const r = await post(sent, 'multipart/form-data; boundary="b"');
      const answer = (await r.json()) as { filename: string; markdown: string };
      expect(r.status).toBe(200);
      expect(answer.filename).toBe("résumé.txt");
      expect(answer.markdown.split("--b is not a boundary here").length - 1).toBe(2000);
    }
  });
});
