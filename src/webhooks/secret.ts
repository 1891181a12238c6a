/**
 * The webhook signing secret: `--webhook-secret` when given, otherwise generated at first start and
 * kept in the data dir (mode 0600) so that it survives restarts. `docintel webhook-secret` shows it.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync, renameSync } from "node:fs";
import { join } from "node:path";

export const WEBHOOK_SECRET_FILE = "webhook-secret";

export function resolveWebhookSecret(dataDir: string, configured?: string): { secret: string; source: "flag" | "file" | "generated" } {
  if (configured) return { secret: configured, source: "flag" };
  const path = join(dataDir, WEBHOOK_SECRET_FILE);
  if (existsSync(path)) return { secret: readFileSync(path, "utf8").trim(), source: "file" };
  const secret = "whsec_" + randomBytes(32).toString("hex");
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, secret + "\n", { mode: 0o600 });
  renameSync(tmp, path);
  return { secret, source: "generated" };
}
