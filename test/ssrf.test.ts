import { describe, expect, test } from "bun:test";
import { AppError } from "../src/errors";
import { failureOf, loopbackServers } from "./helpers/loopback";
import { assertFetchableUrl, classifyAddress, guardedFetch, parseUrlHeaders } from "../src/security/ssrf";

const serve = loopbackServers();

describe("classifyAddress", () => {
  const cases: [string, string | null][] = [
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", null],
    ["172.15.255.255", null],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.0.1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["100.128.0.1", null],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["192.0.0.8", "reserved"],
    ["198.18.0.1", "reserved"],
    ["198.19.255.255", "reserved"],
    ["198.20.0.1", null],
    ["192.0.2.10", "documentation"],
    ["8.8.8.8", null],
    ["1.1.1.1", null],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "private"],
    ["fd12:3456:789a::1", "private"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:169.254.169.254", "IPv4-mapped cloud metadata"],
    ["::ffff:8.8.8.8", null],
    ["64:ff9b::10.0.0.1", "NAT64 private"],
    ["64:ff9b::a9fe:a9fe", "NAT64 cloud metadata"],
    ["64:ff9b::8.8.8.8", null],
    ["fd00:ec2::254", "cloud metadata"],
    ["2002:7f00:1::", "6to4 loopback"],
    ["2001:db8::1", "documentation"],
    ["2606:4700:4700::1111", null],
    ["2001:4860:4860::8888", null],
    ["[2001:4860:4860::8888]", null],
    ["example.com", "not an IP address"],
  ];
  for (const [ip, reason] of cases) {
    test(`${ip} -> ${reason ?? "public"}`, () => {
      expect(classifyAddress(ip)).toBe(reason);
    });
  }
});

describe("assertFetchableUrl", () => {
  const refused: [string, string][] = [
    ["http://127.0.0.1/", "loopback"],
    ["http://2130706433/", "loopback"],
    ["http://0x7f.1/", "loopback"],
    ["http://0177.0.0.1/", "loopback"],
    ["http://[::ffff:127.0.0.1]/", "IPv4-mapped loopback"],
    ["http://[::1]:8080/", "loopback"],
    ["http://169.254.169.254/latest/meta-data/", "cloud metadata"],
    ["http://[fd00:ec2::254]/", "cloud metadata"],
    ["http://10.0.0.7/", "private"],
    ["http://localhost/", "loopback host"],
    ["http://LOCALHOST./", "loopback host"],
    ["http://api.localhost:3000/", "loopback host"],
  ];
  for (const [url, reason] of refused) {
    test(`refuses ${url} as ${reason}`, async () => {
      const error = await failureOf(assertFetchableUrl(url, { allowPrivate: false }));
      expect(error.code).toBe("url_refused");
      expect(error.detail).toContain(reason);
      expect(error.detail).toContain("--allow-private-urls");
    });
  }

  test("message names the field, the address and the fix", async () => {
    const error = await failureOf(assertFetchableUrl("http://127.0.0.1/", { allowPrivate: false, field: "url" }));
    expect(error.detail).toBe(
      "url: 'http://127.0.0.1/' resolves to 127.0.0.1, a loopback address; private addresses are refused unless --allow-private-urls is set",
    );
  });

  test("allowPrivate lets loopback through and reports the address", async () => {
    const { url, addresses } = await assertFetchableUrl("http://2130706433:8080/x", { allowPrivate: true });
    expect(url.hostname).toBe("127.0.0.1");
    expect(addresses).toEqual(["127.0.0.1"]);
  });

  test("a public literal address passes without DNS", async () => {
    const { addresses } = await assertFetchableUrl("https://8.8.8.8/doc.pdf", { allowPrivate: false });
    expect(addresses).toEqual(["8.8.8.8"]);
  });

  test("refuses schemes other than http and https, even with allowPrivate", async () => {
    for (const url of ["file:///etc/passwd", "ftp://8.8.8.8/a.pdf", "gopher://8.8.8.8/", "data:text/plain,hi"]) {
      const error = await failureOf(assertFetchableUrl(url, { allowPrivate: true }));
      expect(error.code).toBe("url_refused");
      expect(error.detail).toContain("send an http or https URL");
    }
  });

  test("refuses credentials in the URL", async () => {
    const error = await failureOf(assertFetchableUrl("https://user:secret@8.8.8.8/a.pdf", { allowPrivate: true }));
    expect(error.code).toBe("url_refused");
    expect(error.detail).toContain("user:password@");
  });

  test("a malformed URL is a bad request naming the field", async () => {
    const error = await failureOf(assertFetchableUrl("not a url", { allowPrivate: false, field: "source_url" }));
    expect(error.code).toBe("bad_request");
    expect(error.detail.startsWith("source_url:")).toBe(true);
  });

  test("a name that does not resolve is url_unreachable", async () => {
    const error = await failureOf(assertFetchableUrl("http://no-such-host.invalid/a.pdf", { allowPrivate: false }));
    expect(error.code).toBe("url_unreachable");
    expect(error.detail).toContain("no-such-host.invalid");
  });
});

describe("parseUrlHeaders", () => {
  test("absent or blank means no headers", () => {
    expect(parseUrlHeaders(undefined)).toEqual({});
    expect(parseUrlHeaders("  ")).toEqual({});
  });

  test("parses an object of string values", () => {
    expect(parseUrlHeaders('{"Authorization": "Bearer abc", "X-Trace": "1"}')).toEqual({ Authorization: "Bearer abc", "X-Trace": "1" });
  });

  test("rejects anything but an object of strings", () => {
    for (const raw of ["[1,2]", "null", '"text"', "{not json", '{"X-Count": 3}']) {
      const error = (() => {
        try {
          parseUrlHeaders(raw);
        } catch (e) {
          return e as AppError;
        }
        throw new Error(`accepted ${raw}`);
      })();
      expect(error.code).toBe("bad_request");
      expect(error.detail).toContain("url_headers: must be a JSON object of header names to string values");
    }
  });

  test("refuses connection headers and header injection", () => {
    for (const raw of ['{"Host": "internal"}', '{"Content-Length": "5"}', '{"Transfer-Encoding": "chunked"}', '{"connection": "close"}']) {
      expect(() => parseUrlHeaders(raw)).toThrow(/set by the server and may not be sent/);
    }
    expect(() => parseUrlHeaders('{"X-A": "1\\r\\nHost: evil"}')).toThrow(/line break/);
    expect(() => parseUrlHeaders('{"Bad Name": "1"}')).toThrow(/not a valid header name/);
  });
});

describe("guardedFetch", () => {
  const limits = { maxBytes: 100_000, timeoutMs: 5_000 };

  test("fetches a document and reports status, type and final URL", async () => {
    const { origin } = serve(() => new Response("hello pdf", { headers: { "content-type": "application/pdf" } }));
    const result = await guardedFetch(`${origin}/a.pdf`, { allowPrivate: true, ...limits });
    expect(new TextDecoder().decode(result.bytes)).toBe("hello pdf");
    expect(result.status).toBe(200);
    expect(result.contentType).toBe("application/pdf");
    expect(result.finalUrl).toBe(`${origin}/a.pdf`);
  });

  test("the same loopback server is refused without allowPrivate, before any request", async () => {
    let hits = 0;
    const { origin } = serve(() => {
      hits++;
      return new Response("secret");
    });
    const error = await failureOf(guardedFetch(`${origin}/`, { allowPrivate: false, ...limits }));
    expect(error.code).toBe("url_refused");
    expect(hits).toBe(0);
  });

  test("a redirect from a public address to 127.0.0.1 is refused at the redirect hop", async () => {
    // A loopback HTTP proxy stands in for the internet: the public first hop (8.8.8.8) passes the
    // guard and reaches the proxy, which redirects to a loopback server that must never be hit.
    let secretHits = 0;
    const secret = serve(() => {
      secretHits++;
      return new Response("internal admin page");
    });
    const proxyRequests: string[] = [];
    const proxy = serve((req) => {
      proxyRequests.push(req.url);
      return new Response(null, { status: 302, headers: { location: `${secret.origin}/admin` } });
    });
    const saved = { upper: process.env.HTTP_PROXY, lower: process.env.http_proxy };
    process.env.HTTP_PROXY = process.env.http_proxy = proxy.origin;
    try {
      const error = await failureOf(guardedFetch("http://8.8.8.8/start", { allowPrivate: false, ...limits }));
      expect(error.code).toBe("url_refused");
      expect(error.detail).toContain(`'${secret.origin}/admin' resolves to 127.0.0.1, a loopback address`);
    } finally {
      for (const [key, value] of [["HTTP_PROXY", saved.upper], ["http_proxy", saved.lower]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    expect(proxyRequests).toEqual(["http://8.8.8.8/start"]);
    expect(secretHits).toBe(0);
  });

  test("every hop is re-checked: a redirect to file:// is refused even with allowPrivate", async () => {
    const { origin } = serve(() => new Response(null, { status: 302, headers: { location: "file:///etc/passwd" } }));
    const error = await failureOf(guardedFetch(`${origin}/`, { allowPrivate: true, ...limits }));
    expect(error.code).toBe("url_refused");
    expect(error.detail).toContain("scheme 'file'");
  });

  test("follows same-origin redirects and keeps url_headers; drops them cross-origin", async () => {
    const seen: Record<string, string | null> = {};
    const other = serve((req) => {
      seen.other = req.headers.get("authorization");
      return new Response("from other origin");
    });
    const first = serve((req) => {
      const path = new URL(req.url).pathname;
      seen[path] = req.headers.get("authorization");
      if (path === "/start") return new Response(null, { status: 301, headers: { location: "/same" } });
      if (path === "/same") return new Response(null, { status: 307, headers: { location: `${other.origin}/doc` } });
      return new Response("unexpected", { status: 500 });
    });
    const result = await guardedFetch(`${first.origin}/start`, {
      allowPrivate: true,
      headers: { Authorization: "Bearer token-123" },
      ...limits,
    });
    expect(new TextDecoder().decode(result.bytes)).toBe("from other origin");
    expect(result.finalUrl).toBe(`${other.origin}/doc`);
    expect(seen["/start"]).toBe("Bearer token-123");
    expect(seen["/same"]).toBe("Bearer token-123");
    expect(seen.other).toBeNull();
  });

  test("too many redirects is url_unreachable", async () => {
    const { origin } = serve((req) => {
      const n = Number(new URL(req.url).searchParams.get("n") ?? "0");
      return new Response(null, { status: 302, headers: { location: `/loop?n=${n + 1}` } });
    });
    const error = await failureOf(guardedFetch(`${origin}/loop`, { allowPrivate: true, maxRedirects: 3, ...limits }));
    expect(error.code).toBe("url_unreachable");
    expect(error.detail).toContain("more than 3 times");
  });

  test("a declared Content-Length over the limit is refused before reading", async () => {
    const { origin } = serve(() => new Response(new Uint8Array(200_000)));
    const error = await failureOf(guardedFetch(`${origin}/big.pdf`, { allowPrivate: true, ...limits }));
    expect(error.code).toBe("payload_too_large");
    expect(error.detail).toBe(`url: the document at '${origin}/big.pdf' is larger than 100000 bytes (the limit)`);
  });

  test("a chunked body without Content-Length is cut off once it passes maxBytes", async () => {
    let chunksSent = 0;
    let sawContentLength: string | null = "unset";
    const { origin } = serve(() => {
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (chunksSent >= 1_000) return controller.close(); // 64 MB if nobody stops reading
          chunksSent++;
          controller.enqueue(new Uint8Array(64 * 1024));
          await Bun.sleep(1);
        },
      });
      return new Response(stream, { headers: { "content-type": "application/octet-stream" } });
    });
    const probe = await fetch(`${origin}/probe`);
    sawContentLength = probe.headers.get("content-length");
    await probe.body?.cancel();
    chunksSent = 0;

    const error = await failureOf(guardedFetch(`${origin}/stream`, { allowPrivate: true, maxBytes: 1_000_000, timeoutMs: 10_000 }));
    expect(sawContentLength).toBeNull();
    expect(error.code).toBe("payload_too_large");
    expect(error.detail).toContain("is larger than 1 MB (the limit)");
    expect(chunksSent).toBeLessThan(100);
  });

  test("a slow server hits the deadline and is url_unreachable", async () => {
    const { origin } = serve(async () => {
      await Bun.sleep(3_000);
      return new Response("too late");
    });
    const started = performance.now();
    const error = await failureOf(guardedFetch(`${origin}/slow`, { allowPrivate: true, maxBytes: 1000, timeoutMs: 300 }));
    expect(error.code).toBe("url_unreachable");
    expect(error.detail).toContain("within 300 ms");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  test("the deadline also covers a body that trickles in", async () => {
    const { origin } = serve(() => {
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await Bun.sleep(100);
          controller.enqueue(new Uint8Array([1]));
        },
      });
      return new Response(stream);
    });
    const error = await failureOf(guardedFetch(`${origin}/trickle`, { allowPrivate: true, maxBytes: 1_000_000, timeoutMs: 400 }));
    expect(error.code).toBe("url_unreachable");
    expect(error.detail).toContain("within 400 ms");
  });

  test("a non-2xx answer is url_unreachable with the status", async () => {
    const { origin } = serve(() => new Response("nope", { status: 404 }));
    const error = await failureOf(guardedFetch(`${origin}/missing.pdf`, { allowPrivate: true, ...limits }));
    expect(error.code).toBe("url_unreachable");
    expect(error.detail).toBe(`url: '${origin}/missing.pdf' answered HTTP 404; check the URL and url_headers`);
  });

  test("a closed port is url_unreachable", async () => {
    const { server, origin } = serve(() => new Response("x"));
    server.stop(true);
    const error = await failureOf(guardedFetch(`${origin}/`, { allowPrivate: true, ...limits }));
    expect(error.code).toBe("url_unreachable");
    expect(error.cause).toBeDefined();
  });

  test("plain http connects to the checked address and keeps the original Host", async () => {
    let host = null as string | null; // set in the handler; the cast keeps TS from narrowing it to null
    const { server } = serve((req) => {
      host = req.headers.get("host");
      return new Response("ok");
    });
    const result = await guardedFetch(`http://localhost:${server.port}/doc`, { allowPrivate: true, ...limits });
    expect(new TextDecoder().decode(result.bytes)).toBe("ok");
    expect(host).toBe(`localhost:${server.port}`);
    expect(result.finalUrl).toBe(`http://localhost:${server.port}/doc`);
  });

  test("a caller's abort signal wins over the deadline", async () => {
    const { origin } = serve(async () => {
      await Bun.sleep(2_000);
      return new Response("late");
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new AppError("shutting_down", "the server is stopping")), 100);
    const error = await failureOf(guardedFetch(`${origin}/`, { allowPrivate: true, ...limits, signal: controller.signal }));
    expect(error.code).toBe("shutting_down");
  });
});
