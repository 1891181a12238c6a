/**
 * The docintel command line. `bin/docintel` (a Bun script) and the compiled binary both call
 * `main`, so they have exactly the same commands. Every `serve` option (and --data) is also an
 * environment variable DOCINTEL_<FLAG>, flags winning; a command's own flags (md --selector, keys
 * create --plan, ...) are read from the command line only, so a variable left in a shell never
 * changes a later command.
 */
// first: `serve` restarts itself with its allocator setting before anything else is evaluated
import "../runtime/allocator";
import { ConfigError, DATA_OPTION, DATABASE_OPTION, DATABASE_OPTIONS, DB_POOL_OPTION, DB_TIMEOUT_OPTION, SERVE_OPTIONS, databaseFrom, loadConfig, resolveOptions, type DatabaseChoice, type OptionSpec } from "../config";
import { SCHEMA_VERSION, checkDatabase, describeDatabase, openDatabase, type OpenDatabase } from "../store/database";
import { exportSqlite, importPostgres } from "../store/transfer";
import { redactUrl } from "../store/postgres";
import { STORE_FILE, openStore } from "../store";
import { createBootstrapKey, isPlan, keyInfoOf, newApiKey, type ApiKeyInfo } from "../security/apiKeys";
import { balanceOf, periodOf } from "../credits/ledger";
import { RATE_LIMIT_PER_MINUTE } from "../credits/plans";
import { createServices } from "../app/services";
import { PythonSandbox } from "../ai/sandbox";
import { startServer } from "../app/server";
import { PRIVATE_UMASK, tightenDataDir } from "../security/dataDir";
import { WorkerPool } from "../pool";
import { detectPrograms } from "../tools/programs";
import { detectIsolation, isolationStatus } from "../tools/sandbox";
import { WEBHOOK_SECRET_SETTING, keySigningSecret, resolveWebhookSecret, rotateSigningSecret } from "../webhooks/secret";
import { serviceUnit } from "./serviceUnit";
import { optionHelp, parseArgv } from "./args";
import { VERSION, INTERFACE_VERSION } from "../version";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../errors";
import { closeConvertTools, createConvertTools } from "../convert/tools";
import { markdownDepsOf, markdownOf, resultFields } from "../markdown/service";
import { CONVERSION_PROCESS_COMMAND } from "../convert/isolation";
import { runOcrProcess } from "../tools/tesseract/ocrProcess";
import { OCR_PROCESS_COMMAND } from "../tools/tesseract/warm";
import { runConversionChild } from "../convert/isolation/child";
import { RENDER_MODES, type RenderMode } from "../convert/types";
import { MCP_BRIDGE_OPTIONS, runStdioBridge } from "../mcp/bridge";

const env = process.env as Record<string, string | undefined>;
const out = (s = "") => process.stdout.write(s + "\n");
const err = (s: string) => process.stderr.write(s + "\n");

const PLAN_OPTION: OptionSpec = { flag: "plan", env: null, kind: "string", choices: ["free", "pro", "enterprise"], describe: "the key's plan: free (100 credits a month), pro or enterprise (metered)" };
const NAME_OPTION: OptionSpec = { flag: "name", env: null, kind: "string", default: "", describe: "a label for the key" };
const ROTATE_OPTION: OptionSpec = { flag: "rotate", env: null, kind: "boolean", default: false, describe: "replace the secret with a new one, used from the next webhook request on" };
const WEBHOOK_SECRET_OPTION = SERVE_OPTIONS.find((o) => o.flag === "webhook-secret")!;
/** MD_OPTIONS: `docintel md` takes the conversion settings of `serve` plus its own output options. */
const MD_SERVE_FLAGS = new Set(["allow-private-urls", "workers", "max-upload-mb", "fetch-timeout-ms", "convert-timeout-ms", "max-pages", "max-megapixels", "max-decompressed-mb", "max-markdown-mb", "convert-processes", "convert-memory-mb", "chromium-path", "office-instances", "ocr-concurrency", "bwrap-path", "transcription-model"]);
const MD_OWN_OPTIONS: OptionSpec[] = [
  { flag: "output", short: "o", env: null, kind: "string", describe: "write the result to this file instead of stdout" },
  { flag: "format", env: null, kind: "string", choices: ["markdown", "json"], default: "markdown", describe: "markdown, or json: the JSON result as the API returns it" },
  { flag: "json", env: null, kind: "boolean", default: false, describe: "the same as --format json" },
  { flag: "filename", env: null, kind: "string", minLength: 1, describe: "with - (stdin): the document's file name; its extension helps tell text formats apart (notes.md, data.csv)" },
  { flag: "keep-boilerplate", env: null, kind: "boolean", default: false, describe: "web pages: keep navigation, footers and the rest (main_content=false)" },
  { flag: "selector", env: null, kind: "string", minLength: 1, describe: "web pages: convert only the element matching this CSS selector" },
  { flag: "wait-ms", env: null, kind: "integer", min: 0, max: 30000, default: 0, describe: "web pages: extra wait after the network settles" },
  { flag: "render", env: null, kind: "string", choices: RENDER_MODES, default: "auto", describe: "web pages: auto (the rendered page or the served HTML, whichever holds more article), never (no browser) or always (the rendered page only)" },
];
const MD_OPTIONS: OptionSpec[] = [...MD_OWN_OPTIONS, ...SERVE_OPTIONS.filter((o) => MD_SERVE_FLAGS.has(o.flag))];

/** DOCTOR_OPTIONS: doctor checks isolation with serve's own --bwrap-path */
const DOCTOR_OPTIONS: OptionSpec[] = [...SERVE_OPTIONS.filter((o) => o.flag === "bwrap-path"), ...DATABASE_OPTIONS];

const UNIT_OPTIONS: OptionSpec[] = [
  { flag: "exec", env: null, kind: "string", default: "/usr/local/bin/docintel", describe: "path of the installed binary" },
  { flag: "user", env: null, kind: "string", default: "docintel", describe: "system user to run as" },
  { flag: "data", env: null, kind: "string", default: "/var/lib/docintel", describe: "the service's data directory" },
  { flag: "env-file", env: null, kind: "string", default: "/etc/docintel/docintel.env", describe: "optional EnvironmentFile with DOCINTEL_* settings" },
  { flag: "docs-url", env: null, kind: "string", default: "http://localhost:8080/docs", describe: "the explorer of the installed service, for Documentation= (its --public-url + /docs when it has one)" },
];

interface Command {
  usage: string;
  summary: string;
  options: OptionSpec[];
  run(positionals: string[], flags: Record<string, string | boolean | undefined>): Promise<number>;
}

/** withDatabase opens the store --database names (SQLite in the data dir by default), says which on stderr, and closes it after `fn`. */
async function withDatabase<T>(choice: DatabaseChoice, fn: (backend: OpenDatabase) => Promise<T>): Promise<T> {
  const backend = await openDatabase(choice);
  err(choice.kind === "sqlite" ? `data dir ${choice.dataDir} (store ${backend.location})` : `store ${describeDatabase(choice)}`);
  try {
    return await fn(backend);
  } finally {
    await backend.close();
  }
}

/** stdinLines yields stdin's lines as they arrive (an export may be larger than memory should hold at once) */
async function* stdinLines(): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = "";
  const reader = Bun.stdin.stream().getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    rest += decoder.decode(read.value, { stream: true });
    const lines = rest.split("\n");
    rest = lines.pop()!;
    yield* lines;
  }
  rest += decoder.decode();
  if (rest !== "") yield rest;
}

/**
 * withKey opens the store --database names (the data dir's by default), finds key `id` (exit 1 when
 * there is none) and runs `fn` with it and this month's balance.
 */
async function withKey(flags: Record<string, string | boolean | undefined>, id: string, fn: (key: ApiKeyInfo, backend: OpenDatabase) => Promise<void>): Promise<number> {
  return withDatabase(databaseFrom(env, flags), async (backend) => {
    const row = await backend.keys.byId(id);
    if (!row) {
      err(`no key ${id}; see docintel keys list`);
      return 1;
    }
    await fn(keyInfoOf(row), backend);
    return 0;
  });
}

/** balanceNow reads a key's balance of the current month from either backend */
async function balanceNow(backend: OpenDatabase, key: ApiKeyInfo) {
  const now = new Date();
  const period = periodOf(now);
  return balanceOf(key, period, await backend.credits.totals(key.id, period, now.getTime()));
}

const COMMANDS: Record<string, Command> = {
  serve: {
    usage: "docintel serve [--host 0.0.0.0] [--port 8080] [--data DIR] [--allow-private-urls] [--public-url URL] [--anonymous-plan none|free] ...",
    summary: "start the HTTP service (explorer at /docs)",
    options: SERVE_OPTIONS,
    async run(_, flags) {
      const config = loadConfig(env, flags);
      // before the store opens: its files, and everything made from here on, are the service user's only
      process.umask(PRIVATE_UMASK);
      const tightened = tightenDataDir(config.dataDir);
      let services: Awaited<ReturnType<typeof createServices>>;
      try {
        services = await createServices(config);
      } catch (error) {
        // the store is unreachable, refuses us, or is at a newer schema: say so in one line (the URL without its password)
        err(`docintel serve: could not start: ${(error as Error).message}`);
        return 1;
      }
      if (tightened.changed > 0) services.logger.info("data dir tightened", { data: config.dataDir, entries: tightened.changed, modes: "dirs 0700, files 0600" });
      if (tightened.refused.length > 0) {
        services.logger.error("-", `data dir: ${tightened.refused.length} entries could not be made private (run the service as their owner, or chown -R the data dir)`, tightened.refused.slice(0, 5).join("; "));
      }
      // once per store, even when several processes or machines start on it at once (apiKeys.ts)
      const bootstrap = config.bootstrapKey ? await createBootstrapKey(services.backend) : null;
      if (bootstrap) {
        const { key, info } = bootstrap;
        out("No API keys existed, so one was created (shown only this once; keep it):");
        out(`  id ${info.id}, plan ${info.plan} (metered, ${RATE_LIMIT_PER_MINUTE.pro} requests/min)`);
        if (process.stdout.isTTY) out(`  API key: ${key}`);
        else out(`  API key: written to ${writeBootstrapKey(config.dataDir, key)} (mode 0600), not printed: this output is not a terminal and may be kept in a log. Read it, keep it elsewhere, delete the file.`);
      }
      const isolation = isolationStatus(); // detected by createServices, before any tool runs
      services.logger.info(isolation.enabled ? "tool isolation on" : "tool isolation OFF", { detail: isolation.detail });
      for (const [message, fields] of whatIsOff(config)) services.logger.info(message, fields);
      const running = startServer(services);
      services.logger.info("listening", { url: `http://${config.host}:${running.server.port}`, docs: `${running.url}/docs`, metrics: running.metricsUrl ?? "off", data: config.dataDir, version: VERSION });
      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = async (signal: string) => {
          if (stopping) return;
          stopping = true;
          services.logger.info("shutting down", { signal });
          await running.stop();
          resolve();
        };
        process.on("SIGTERM", () => void stop("SIGTERM"));
        process.on("SIGINT", () => void stop("SIGINT"));
      });
      return 0;
    },
  },
  "keys create": {
    usage: "docintel keys create --plan free|pro|enterprise [--name N] [--data DIR | --database URL]",
    summary: "create an API key; the key is printed once, as the last line",
    options: [PLAN_OPTION, NAME_OPTION, ...DATABASE_OPTIONS],
    async run(_, flags) {
      const o = resolveOptions([PLAN_OPTION, NAME_OPTION], env, flags);
      const plan = String(o.plan ?? "");
      if (!isPlan(plan)) throw new ConfigError("--plan is needed: free, pro or enterprise");
      const choice = databaseFrom(env, flags);
      const { key, row, info } = newApiKey(plan, String(o.name ?? ""));
      if (choice.kind === "sqlite") {
        const dataDir = choice.dataDir;
        const storeExisted = existsSync(join(dataDir, STORE_FILE));
        const backend = await openDatabase(choice);
        await backend.keys.insert(row);
        await backend.close();
        err(`data dir ${dataDir} (store ${join(dataDir, STORE_FILE)}${storeExisted ? "" : ", new: it did not exist"})`);
        if (!storeExisted) err(`note: the service accepts this key only when it runs with this data dir (--data ${dataDir} or DOCINTEL_DATA)`);
      } else {
        await withDatabase(choice, (backend) => backend.keys.insert(row));
      }
      err(`created ${info.id} (plan ${info.plan}${info.name ? `, name ${info.name}` : ""}); the key below is shown only once`);
      out(key);
      return 0;
    },
  },
  "keys list": {
    usage: "docintel keys list [--data DIR | --database URL]",
    summary: "list keys (id, plan, name, prefix, dates); never prints a full key",
    options: DATABASE_OPTIONS,
    async run(_, flags) {
      const keys = await withDatabase(databaseFrom(env, flags), async (backend) => (await backend.keys.list()).map(keyInfoOf));
      out(["ID", "PLAN", "STATUS", "PREFIX", "CREATED", "LAST USED", "NAME"].join("\t"));
      for (const k of keys) out([k.id, k.plan, k.revokedAt ? "revoked" : "active", `${k.prefix}...`, k.createdAt, k.lastUsedAt ?? "-", k.name || "-"].join("\t"));
      return 0;
    },
  },
  "keys revoke": {
    usage: "docintel keys revoke KEY_ID [--data DIR | --database URL]",
    summary: "revoke a key; it gets 401 from then on, its pending tasks fail (key_revoked) and its running ones stop",
    options: DATABASE_OPTIONS,
    async run([id], flags) {
      if (!id) throw new ConfigError("name the key to revoke: docintel keys revoke KEY_ID");
      const found = await withDatabase(databaseFrom(env, flags), async (backend) => {
        if (!(await backend.keys.byId(id))) return false;
        await backend.keys.revoke(id, new Date().toISOString());
        return true;
      });
      if (!found) {
        err(`no key ${id}; see docintel keys list`);
        return 1;
      }
      out(`revoked ${id}`);
      return 0;
    },
  },
  "keys secret": {
    usage: "docintel keys secret KEY_ID [--rotate] [--data DIR | --database URL] [--webhook-secret S]",
    summary: "print a key's webhook signing secret (the shared one for keys made before per-key secrets); --rotate replaces it",
    options: [ROTATE_OPTION, ...DATABASE_OPTIONS, WEBHOOK_SECRET_OPTION],
    async run([id], flags) {
      if (!id) throw new ConfigError("name the key: docintel keys secret KEY_ID [--rotate]");
      const o = resolveOptions([ROTATE_OPTION, WEBHOOK_SECRET_OPTION], env, flags);
      const choice = databaseFrom(env, flags);
      return withDatabase(choice, async (backend) => {
        const secret = o.rotate ? await rotateSigningSecret(backend.keys, id) : await keySigningSecret(backend.keys, id);
        if (!secret) {
          err(`no key ${id}; see docintel keys list`);
          return 1;
        }
        if (secret.own === null) {
          err(`${id} was made before per-key secrets and signs with the shared secret (docintel keys secret ${id} --rotate gives it its own)`);
          out((await resolveWebhookSecret(backend.settings, o["webhook-secret"] as string | undefined)).secret);
          return 0;
        }
        err(o.rotate ? `rotated: the next webhook request of ${id} is signed with this secret` : `${id}'s own secret, made ${secret.setAt}`);
        out(secret.own);
        return 0;
      });
    },
  },
  "credits grant": {
    usage: "docintel credits grant KEY_ID N [--data DIR | --database URL]",
    summary: "add N credits to a key for the current month",
    options: DATABASE_OPTIONS,
    async run([id, n], flags) {
      if (!id || !n || !/^\d+$/.test(n) || Number(n) <= 0) throw new ConfigError("usage: docintel credits grant KEY_ID N (N a positive whole number)");
      return withKey(flags, id, async (key, backend) => {
        const now = new Date();
        await backend.credits.grant({ key_id: id, kind: "grant", amount: Number(n), period: periodOf(now), operation: null, request_id: null, note: "granted with the CLI", created_at: now.toISOString() });
        const b = await balanceNow(backend, key);
        out(`granted ${n} credits to ${id}; remaining this month (${b.period}): ${b.remaining ?? "metered, no cap"}`);
      });
    },
  },
  "credits show": {
    usage: "docintel credits show KEY_ID [--data DIR | --database URL]",
    summary: "show a key's plan, allowance, grants, use and balance this month",
    options: DATABASE_OPTIONS,
    async run([id], flags) {
      if (!id) throw new ConfigError("usage: docintel credits show KEY_ID");
      return withKey(flags, id, async (key, backend) => {
        const b = await balanceNow(backend, key);
        out(`key        ${key.id}${key.revokedAt ? " (revoked)" : ""}`);
        out(`plan       ${b.plan} (${RATE_LIMIT_PER_MINUTE[b.plan]} requests/min)`);
        out(`period     ${b.period}`);
        out(`allowance  ${b.allowance ?? "metered, no cap"}`);
        out(`granted    ${b.granted}`);
        out(`used       ${b.used}`);
        out(`held       ${b.held}`);
        out(`remaining  ${b.remaining ?? "no cap"}`);
      });
    },
  },
  "webhook-secret": {
    usage: "docintel webhook-secret [--data DIR | --database URL] [--webhook-secret S]",
    summary: "print the shared webhook signing secret of keys made before per-key secrets (see keys secret)",
    options: [...DATABASE_OPTIONS, WEBHOOK_SECRET_OPTION],
    async run(_, flags) {
      const choice = databaseFrom(env, flags);
      const o = resolveOptions([WEBHOOK_SECRET_OPTION], env, flags);
      const { secret, source } = await withDatabase(choice, (backend) => resolveWebhookSecret(backend.settings, o["webhook-secret"] as string | undefined));
      const stored = choice.kind === "sqlite" ? `${choice.dataDir}/${WEBHOOK_SECRET_SETTING}` : `the setting ${WEBHOOK_SECRET_SETTING} of ${describeDatabase(choice)}`;
      err(`source: ${source === "flag" ? "--webhook-secret / DOCINTEL_WEBHOOK_SECRET" : stored}`);
      out(secret);
      return 0;
    },
  },
  doctor: {
    usage: "docintel doctor [--bwrap-path bwrap] [--data DIR | --database URL]",
    summary: "report the external programs found, what they enable, whether they run isolated, and check the worker pool (sharp) and the Python sandbox",
    options: DOCTOR_OPTIONS,
    async run(_, flags) {
      out(`docintel ${VERSION} (interface ${INTERFACE_VERSION}), Bun ${Bun.version}`);
      out("");
      out("programs:");
      let missing = 0;
      for (const p of await detectPrograms()) {
        if (p.path) out(`  ok       ${p.name.padEnd(13)} ${p.path} (${p.version ?? "version unknown"})\n           enables: ${p.enables.join(", ")}`);
        else {
          missing++;
          out(`  missing  ${p.name.padEnd(13)} apt-get install ${p.debianPackage}\n           without it: no ${p.enables.join(", no ")}`);
        }
      }
      out("");
      out("tool isolation (bubblewrap):");
      const isolation = detectIsolation(String(resolveOptions(DOCTOR_OPTIONS, env, flags)["bwrap-path"]));
      out(`  ${isolation.enabled ? "ok     " : "OFF    "}  ${isolation.detail}`);
      out("");
      const choice = databaseFrom(env, flags);
      out(`store (${describeDatabase(choice)}):`);
      const database = await checkDatabase(choice);
      out(`  ${database.ok ? "ok     " : "FAILED "}  ${database.detail}`);
      out("");
      out("worker pool:");
      let poolOk = false;
      const pool = new WorkerPool({ threads: 1, maxQueue: 1 });
      try {
        const t0 = performance.now();
        const r = await pool.run("selfTest", {});
        poolOk = r.format === "jpeg" && r.bytes > 0;
        out(`  ${poolOk ? "ok" : "FAILED"}       sharp (libvips ${r.vips}) encoded a ${r.width}x${r.height} JPEG in a worker thread in ${Math.round(performance.now() - t0)} ms`);
      } catch (e) {
        out(`  FAILED   sharp in a worker thread: ${(e as Error).message}`);
      } finally {
        await pool.close();
      }
      out("");
      out("compute sandbox (the analyze agent's Python):");
      const sandbox = new PythonSandbox({ timeoutMs: 5_000, memoryLimitMb: 256, maxOutputChars: 200, spares: 0, maxInterpreters: 1 });
      let sandboxOk = false;
      try {
        const t0 = performance.now();
        const r = await sandbox.session().run("sum(range(10))");
        sandboxOk = r.ok && r.result === "45";
        out(sandboxOk ? `  ok       Pyodide started and ran sum(range(10)) = 45 in ${Math.round(performance.now() - t0)} ms` : `  FAILED   ${r.error ?? `unexpected result ${r.result}`}`);
      } finally {
        await sandbox.close();
      }
      out("");
      out("AI provider:");
      out(env.GROQ_API_KEY ? `  ok       GROQ_API_KEY is set${env.GROQ_BASE_URL ? ` (GROQ_BASE_URL ${env.GROQ_BASE_URL})` : ""}` : "  missing  GROQ_API_KEY is not set: extract uses the local engine; analyze, cross-analyze, decide and annotated diffs answer 503 ai_unavailable");
      out("");
      out(missing ? `${missing} program(s) missing: the capabilities named above are unavailable until they are installed (make setup installs them all).` : "all programs found.");
      return poolOk && sandboxOk && database.ok ? 0 : 1;
    },
  },
  migrate: {
    usage: "docintel migrate [--database postgres://... | --data DIR]",
    summary: "apply the store's schema (machines starting at once migrate once) and print its version",
    options: DATABASE_OPTIONS,
    async run(positionals, flags) {
      if (positionals.length) throw new ConfigError(`takes no arguments, got '${positionals.join(" ")}'`);
      const choice = databaseFrom(env, flags);
      return withDatabase(choice, async (backend) => {
        const applied = backend.kind === "postgres" ? backend.migrations.applied : [];
        for (const m of applied) err(`applied ${m.table} ${m.version} ${m.name}`);
        const version = Math.max(0, ...(await backend.appliedMigrations()));
        out(`schema version ${version}${backend.kind === "postgres" && applied.length === 0 ? " (already current)" : ""}`);
        return version === SCHEMA_VERSION ? 0 : 1;
      });
    },
  },
  export: {
    usage: "docintel export [--data DIR] > store.jsonl",
    summary: "write a SQLite data dir's keys, ledger, holds, batches, tasks and deliveries as JSON lines (stop the service first), for docintel import",
    options: [DATA_OPTION, DATABASE_OPTION],
    async run(positionals, flags) {
      if (positionals.length) throw new ConfigError(`takes no arguments, got '${positionals.join(" ")}'; the export goes to stdout (docintel export > store.jsonl)`);
      const choice = databaseFrom(env, flags);
      if (choice.kind === "postgres") throw new ConfigError(`--database ${redactUrl(choice.url)}: export reads a SQLite data dir (--data DIR); back a PostgreSQL store up with pg_dump`);
      const dataDir = choice.dataDir;
      if (!existsSync(join(dataDir, STORE_FILE))) {
        err(`no store in ${dataDir} (${STORE_FILE} is missing); name the data dir with --data`);
        return 1;
      }
      const store = openStore(dataDir);
      err(`data dir ${dataDir} (store ${store.path})`);
      try {
        const writer = Bun.stdout.writer();
        let rows = -1;
        for await (const line of exportSqlite(store)) {
          writer.write(line + "\n");
          rows++;
          if (rows % 1000 === 0) await writer.flush();
        }
        await writer.end();
        err(`exported ${rows} lines: rows, then the data dir's settings (signing keys) and blobs (task inputs, thumbnail images)`);
        return 0;
      } finally {
        store.close();
      }
    },
  },
  import: {
    usage: "docintel import --database postgres://... < store.jsonl",
    summary: "read the output of docintel export into an empty PostgreSQL database, in one transaction (migrates it first)",
    options: [DATABASE_OPTION, DB_POOL_OPTION, DB_TIMEOUT_OPTION],
    async run(positionals, flags) {
      if (positionals.length) throw new ConfigError(`takes no arguments, got '${positionals.join(" ")}'; the export comes on stdin (docintel import --database URL < store.jsonl)`);
      const choice = databaseFrom(env, flags);
      if (choice.kind !== "postgres") throw new ConfigError("--database must be a postgres:// URL: import moves a SQLite export into PostgreSQL");
      return withDatabase(choice, async (backend) => {
        if (backend.kind !== "postgres") throw new Error("import: expected a PostgreSQL store");
        try {
          const written = await importPostgres(backend.sql, stdinLines());
          err(`imported ${Object.entries(written).map(([t, n]) => `${n} ${t}`).join(", ")}`);
          out(`imported ${Object.values(written).reduce((a, b) => a + b, 0)} rows`);
          return 0;
        } catch (error) {
          err(`docintel import: ${(error as Error).message}`);
          return 1;
        }
      });
    },
  },
  "service-unit": {
    usage: "docintel service-unit [--exec /usr/local/bin/docintel] [--user docintel] [--data /var/lib/docintel] [--env-file /etc/docintel/docintel.env] [--docs-url URL]",
    summary: "print a hardened systemd unit file",
    options: UNIT_OPTIONS,
    async run(_, flags) {
      const o = resolveOptions(UNIT_OPTIONS, env, flags);
      const docsUrl = String(o["docs-url"]);
      if (!/^(https?|file|man|info):/.test(docsUrl)) throw new ConfigError(`--docs-url must be an http, https, file, man or info URI (systemd's Documentation=), got '${docsUrl}'`);
      out(serviceUnit({ exec: String(o.exec), user: String(o.user), dataDir: String(o.data), envFile: String(o["env-file"]), docsUrl }));
      return 0;
    },
  },
  md: {
    usage: "docintel md FILE|URL|- [-o FILE] [--format markdown|json] [--filename NAME] [--keep-boilerplate] [--selector CSS] [--wait-ms N] [--render auto|never|always] [--allow-private-urls] ...",
    summary: "convert a file, a URL or stdin (-) to markdown, without a server (warnings go to stderr)",
    options: MD_OPTIONS,
    async run([target, ...extra], flags) {
      if (!target || extra.length) throw new ConfigError("give exactly one FILE, URL or - (stdin), e.g. docintel md report.pdf or cat report.pdf | docintel md -");
      const own = resolveOptions(MD_OWN_OPTIONS, env, flags);
      const json = own.json === true || own.format === "json";
      const render = String(own.render) as RenderMode;
      const isUrl = /^https?:\/\//i.test(target);
      const file = isUrl ? undefined : await readInput(target, own.filename as string | undefined);
      if (file === null) {
        err(`docintel md: no such file: ${target}`);
        return 1;
      }
      const work = mkdtempSync(join(tmpdir(), "docintel-md-"));
      const config = loadConfig(env, { ...flags, data: work, "no-bootstrap-key": true });
      const pool = new WorkerPool({ threads: config.workers, maxQueue: config.queueSize });
      const tools = createConvertTools(config, pool);
      const deps = markdownDepsOf(config, tools);
      const write = (text: string) => (own.output ? writeFileSync(String(own.output), text) : process.stdout.write(text));
      try {
        const outcome = await markdownOf(
          isUrl ? { url: target, render } : { file },
          { mainContent: !own["keep-boilerplate"], waitMs: Number(own["wait-ms"] ?? 0), selector: own.selector ? String(own.selector) : undefined },
          deps,
        );
        if (json) write(JSON.stringify({ success: true, ...resultFields(outcome) }, null, 2) + "\n");
        else write(outcome.markdown.endsWith("\n") ? outcome.markdown : outcome.markdown + "\n");
        if (!json) for (const warning of outcome.warnings) err(`warning: ${warning}`);
        if (own.output) err(`wrote ${own.output}`);
        return 0;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (json) write(JSON.stringify({ success: false, error: error.code, detail: error.detail }, null, 2) + "\n");
        err(`docintel md: ${cliWording(error)}`);
        return 1;
      } finally {
        await deps.converter.close();
        await closeConvertTools(tools);
        await pool.close();
        rmSync(work, { recursive: true, force: true });
      }
    },
  },
  mcp: {
    usage: "DOCINTEL_URL=http://127.0.0.1:8080 DOCINTEL_API_KEY=dk_... docintel mcp",
    summary: "MCP over stdio for desktop clients: relays to a running service's /mcp with your API key",
    options: MCP_BRIDGE_OPTIONS,
    async run(positionals, flags) {
      if (positionals.length) throw new ConfigError(`takes no arguments, got '${positionals.join(" ")}'; set DOCINTEL_URL and DOCINTEL_API_KEY`);
      const o = resolveOptions(MCP_BRIDGE_OPTIONS, env, flags);
      return runStdioBridge({ url: String(o.url), apiKey: o["api-key"] === undefined ? "" : String(o["api-key"]), log: err });
    },
  },
  version: {
    usage: "docintel version",
    summary: "print the version",
    options: [],
    async run() {
      out(`docintel ${VERSION} (interface ${INTERFACE_VERSION})`);
      return 0;
    },
  },
};

/** BOOTSTRAP_KEY_FILE: where the first key goes when start-up output is not a terminal (a journal). */
export const BOOTSTRAP_KEY_FILE = "bootstrap-key";

/**
 * writeBootstrapKey writes the first key to DATA/bootstrap-key, readable by the service user only,
 * and returns its path. The service's stdout usually goes to a journal kept for weeks and readable
 * by more people than the key should be; the data dir is 0700 and the file 0600.
 */
function writeBootstrapKey(dataDir: string, key: string): string {
  const path = join(dataDir, BOOTSTRAP_KEY_FILE);
  writeFileSync(path, key + "\n", { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

/** whatIsOff lists, for the start-up log, what this configuration leaves off and how to turn it on. */
function whatIsOff(config: ReturnType<typeof loadConfig>): [string, Record<string, unknown>][] {
  const off: [string, Record<string, unknown>][] = [];
  if (!config.groq.apiKey) {
    off.push(["AI provider off", { detail: "GROQ_API_KEY is not set: extract uses the local engine; analyze, cross-analyze, decide and annotated diffs answer 503 ai_unavailable; audio and video get no transcript" }]);
  }
  if (!config.allowPrivateUrls) off.push(["private URLs refused", { detail: "loopback, private, link-local and metadata addresses are refused as targets and webhooks (--allow-private-urls allows them)" }]);
  if (!config.publicUrl) off.push(["public URL not set", { detail: "signed URLs and the explorer's server are relative (/...); --public-url makes them absolute" }]);
  return off;
}

/**
 * readInput reads the document to convert: a file, or stdin for "-" (named by --filename, else
 * "stdin", the type then told by the content). null when the file does not exist.
 */
async function readInput(target: string, filename: string | undefined): Promise<File | null> {
  if (target === "-") return new File([await Bun.stdin.arrayBuffer()], filename ?? "stdin");
  const handle = Bun.file(target);
  if (!(await handle.exists())) return null;
  return new File([await handle.arrayBuffer()], filename ?? (target.split("/").pop() || "document"));
}

/**
 * CLI_WORDS: how the command line says what the API says with its error codes and field names
 * (the details are written for HTTP clients: "send it as url_headers", "413").
 */
const CLI_WORDS: Partial<Record<AppError["code"], string>> = {
  payload_too_large: "the file is too large (--max-upload-mb)",
  document_too_large: "the document is past a limit",
  unsupported_media_type: "this type of file cannot be converted",
  url_refused: "the URL is refused",
  url_unreachable: "the URL could not be fetched",
  timeout: "the conversion took too long (--convert-timeout-ms)",
  tool_unavailable: "a program it needs is missing or failed (docintel doctor)",
};

/** cliWording prefixes an error's detail with what it means for a command-line user. */
function cliWording(error: AppError): string {
  const lead = CLI_WORDS[error.code];
  return lead ? `${lead}: ${error.detail}` : error.detail;
}

function globalHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length)) + 2;
  return [
    `docintel ${VERSION}: self-hosted document intelligence (interface ${INTERFACE_VERSION})`,
    "",
    "usage: docintel <command> [options]",
    "",
    "commands:",
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)} ${c.summary}`),
    "",
    "Every serve option and --data can also be set as DOCINTEL_<FLAG> (e.g. DOCINTEL_PORT=9000); a command's own flags only on the command line.",
    "'docintel <command> --help' for a command's options.",
  ].join("\n");
}

function commandHelp(name: string, c: Command): string {
  return [`usage: ${c.usage}`, "", c.summary, ...(c.options.length ? ["", "options:", optionHelp(c.options)] : [])].join("\n");
}

/** main runs one command and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [first, second] = argv;
  // the compiled binary starts itself as a conversion process (src/convert/isolation); not for users
  if (first === CONVERSION_PROCESS_COMMAND) return runConversionChild();
  // and as a warm OCR process (src/tools/tesseract/warm.ts)
  if (first === OCR_PROCESS_COMMAND) return runOcrProcess();
  if (!first || first === "help" || first === "--help" || first === "-h") {
    out(globalHelp());
    return 0;
  }
  if (first === "--version" || first === "-v") return COMMANDS.version!.run([], {});
  const twoWord = second && COMMANDS[`${first} ${second}`] ? `${first} ${second}` : null;
  const name = twoWord ?? first;
  const command = COMMANDS[name];
  if (!command) {
    const group = Object.keys(COMMANDS).filter((c) => c.startsWith(`${first} `));
    if (group.length) {
      out(`usage:\n${group.map((g) => `  ${COMMANDS[g]!.usage}`).join("\n")}`);
      return second && second !== "--help" ? 2 : 0;
    }
    err(`unknown command '${first}'\n\n${globalHelp()}`);
    return 2;
  }
  try {
    const parsed = parseArgv(argv.slice(twoWord ? 2 : 1), command.options);
    if (parsed.help) {
      out(commandHelp(name, command));
      return 0;
    }
    return await command.run(parsed.positionals, parsed.flags);
  } catch (error) {
    if (error instanceof ConfigError) {
      err(`docintel ${name}: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      err(`docintel: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    },
  );
}
