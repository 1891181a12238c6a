/**
 * The database a command or the service uses, as a plain value: config parses it, the store opens
 * it. It lives here, below both, so neither folder imports the other for it.
 */

/**
 * DatabaseChoice: the store a command or the service uses. sqlite: the store file in the data dir
 * (dataDir); postgres: the URL (its password never printed: see redactUrl) and the pool's settings.
 */
export type DatabaseChoice =
  | { kind: "sqlite"; dataDir: string }
  | { kind: "postgres"; url: string; poolSize: number; statementTimeoutMs: number };
