/**
 * parseArgv splits argv into positionals and --flags (`--name value`, `--name=value`, `--bool`, and
 * the one-letter aliases the options declare, `-o value`). A lone `-` is a positional (stdin).
 */
import { ConfigError, type OptionSpec, type RawOptions } from "../config";

export interface ParsedArgs {
  positionals: string[];
  flags: RawOptions;
  help: boolean;
}

export function parseArgv(argv: string[], specs: OptionSpec[]): ParsedArgs {
  const byFlag = new Map(specs.map((s) => [s.flag, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
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
    const short = /^-([a-zA-Z])$/.exec(arg)?.[1];
    if (!arg.startsWith("--") && !short) {
      positionals.push(arg);
      continue;
    }
    const [typed, inline] = short ? [short, undefined] : (arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]);
    const spec = short ? byShort.get(short) : byFlag.get(typed);
    if (!spec) throw new ConfigError(`unknown option ${short ? "-" : "--"}${typed}${specs.length ? `; options: ${specs.map((s) => `--${s.flag}`).join(", ")}` : ""}`);
    const name = spec.flag;
    if (spec.kind === "boolean") flags[name] = inline ?? true;
    else if (inline !== undefined) flags[name] = inline;
    else if (i + 1 < argv.length) flags[name] = argv[++i]!;
    else throw new ConfigError(`--${name} needs a value`);
  }
  return { positionals, flags, help };
}

/** defaultShown: how help and the README show an option's default; "" when it has none worth showing. */
export function defaultShown(spec: OptionSpec): string {
  if (spec.defaultText) return spec.defaultText;
  if (spec.default === undefined || spec.default === false || spec.default === "" || typeof spec.default === "function") return "";
  return String(spec.default);
}

function valueHint(spec: OptionSpec): string {
  if (spec.kind === "boolean") return "";
  if (spec.choices) return ` <${spec.choices.join("|")}>`;
  return ` <${spec.kind === "string" ? "value" : "n"}>`;
}

/** optionHelp renders the options of a command for --help: flag, help text, default, variable. */
export function optionHelp(specs: OptionSpec[]): string {
  const rows = specs.map((s) => {
    const left = `  ${s.short ? `-${s.short}, ` : ""}--${s.flag}${valueHint(s)}`;
    const shown = defaultShown(s);
    const here = s.defaultText && ["number", "string"].includes(typeof s.default) ? `, here ${s.default}` : "";
    const def = shown ? ` (default: ${shown}${here})` : "";
    return `${left.padEnd(30)} ${s.describe}${def}${s.env ? `\n${"".padEnd(31)} env ${s.env}` : ""}`;
  });
  return rows.join("\n");
}
