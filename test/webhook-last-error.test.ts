/**
 * Issue 19 item 8: a delivery whose receiver keeps failing says why in `last_error` after each
 * attempt (reported empty after three failed attempts; this pins the behaviour through the API).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { api, form, startServer, type TestServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";

const serve = loopbackServers();
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ args: ["--allow-private-urls", "--webhook-retry-scale", "0.001"], env: { GROQ_API_KEY: "" } });
});
afterAll(() => server.stop());

test("after three failed attempts the delivery log names the last failure", async () => {
  const { origin } = serve(() => new Response("down for maintenance", { status: 503 }));
  const { key } = await server.key("pro");
  const accepted = await api(server, key, "POST", "/api/v1/extract", form({ schema: '{"total":{"type":"number"}}', file: new File(["Total: 4.00"], "a.txt"), sync: "false", webhook_url: `${origin}/hook` }));
  expect(accepted.status).toBe(202);
  let delivery: any;
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await Bun.sleep(100)) {
    delivery = (await api(server, key, "GET", `/api/v1/jobs/${accepted.body.task_id}/deliveries`)).body.deliveries?.[0];
    if (delivery?.attempts >= 3) break;
  }
  expect(delivery.attempts).toBeGreaterThanOrEqual(3);
  expect(delivery).toMatchObject({ status_code: 503, last_error: "the receiver answered HTTP 503" });
});
