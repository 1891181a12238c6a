/** parseArgv splits argv into positionals and --flags (`--name value`, `--name=value`, `--bool`). */
import { ConfigError, type OptionSpec, type RawOptions } from "../config";

export interface ParsedArgs {
  positionals: string[];
  flags: RawOptions;
  help: boolean;
}

export function parseArgv(argv: string[], specs: OptionSpec[]): ParsedArgs {
  const byFlag = new Map(specs.map((s) => [s.flag, s]));
  const positionals: string[] = [];
  const flags: RawOptions = {};
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const spec = byFlag.get(name);
    if (!spec) throw new ConfigError(`unknown option --${name}${specs.length ? `; options: ${specs.map((s) => `--${s.flag}`).join(", ")}` : ""}`);
    if (spec.kind === "boolean") flags[name] = inline ?? true;
    else if (inline !== undefined) flags[name] = inline;
    else if (i + 1 < argv.length) flags[name] = argv[++i]!;
    else throw new ConfigError(`--${name} needs a value`);
  }
  return { positionals, flags, help };
}

export function optionHelp(specs: OptionSpec[]): string {
  const rows = specs.map((s) => {
    const left = `  --${s.flag}${s.kind === "boolean" ? "" : ` <${s.kind === "string" ? "value" : "n"}>`}`;
    const def = s.default !== undefined && s.default !== false && s.default !== "" ? ` (default: ${s.default})` : "";
    return `${left.padEnd(30)} ${s.describe}${def}\n${"".padEnd(31)} env ${s.env}`;
  });
  return rows.join("\n");
}
