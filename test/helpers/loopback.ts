/** Helpers for tests of code that fails with AppError or talks to loopback HTTP servers. */
import { afterAll, expect } from "bun:test";
import { AppError } from "../../src/errors";

/** failureOf awaits a promise that must reject with an AppError and returns it. */
export async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected the promise to reject with an AppError");
}

/**
 * loopbackServers returns `serve`, which starts a Bun.serve on 127.0.0.1 with a free port and
 * gives its origin; every server is stopped after the file's tests (call it at module level).
 */
export function loopbackServers() {
  const servers: { stop(force?: boolean): void }[] = [];
  afterAll(() => servers.forEach((s) => s.stop(true)));
  return function serve(fetch: (req: Request) => Response | Promise<Response>) {
    // idleTimeout 0: a test origin that holds a request must not reset it after Bun's default 10 s
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch });
    servers.push(server);
    return { server, origin: `http://127.0.0.1:${server.port}` };
  };
}
