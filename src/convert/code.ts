/**
 * Source code and configuration files: the file name as the title, the source in one fenced block
 * tagged with its language so renderers highlight it and models know what they read.
 */
import { AppError } from "../errors";
import { fence, textHeading } from "./markdown";
import { decodeText } from "./charset";
import { looksBinary } from "./text";
import type { Converter } from "./types";

/** SOURCE_LANGUAGES maps a file extension (lower case, no dot) to the fence language of its code. */
export const SOURCE_LANGUAGES: Record<string, string> = {
  js: "javascript", mjs: "javascript", cjs: "javascript", jsx: "jsx",
  ts: "typescript", tsx: "tsx", mts: "typescript", cts: "typescript",
  py: "python", pyi: "python", rb: "ruby", go: "go", rs: "rust",
  java: "java", kt: "kotlin", kts: "kotlin", scala: "scala", groovy: "groovy",
  c: "c", h: "c", cc: "cpp", cpp: "cpp", cxx: "cpp", hpp: "cpp", hh: "cpp",
  cs: "csharp", fs: "fsharp", swift: "swift", m: "objectivec", mm: "objectivec",
  php: "php", pl: "perl", pm: "perl", r: "r", lua: "lua", dart: "dart",
  ex: "elixir", exs: "elixir", erl: "erlang", hrl: "erlang", hs: "haskell",
  clj: "clojure", cljs: "clojure", elm: "elm", jl: "julia", nim: "nim", zig: "zig",
  v: "v", sol: "solidity",
  sh: "bash", bash: "bash", zsh: "zsh", fish: "fish", ps1: "powershell", bat: "batch", cmd: "batch",
  sql: "sql", graphql: "graphql", gql: "graphql", proto: "protobuf", tf: "hcl", hcl: "hcl",
  css: "css", scss: "scss", sass: "sass", less: "less", vue: "vue", svelte: "svelte", astro: "astro",
  toml: "toml", ini: "ini", cfg: "ini", conf: "ini", properties: "properties", env: "dotenv",
  dockerfile: "dockerfile", makefile: "makefile", cmake: "cmake", gradle: "groovy",
};

/** FILE_NAME_LANGUAGES covers files known by their whole name rather than an extension. */
const FILE_NAME_LANGUAGES: Record<string, string> = {
  dockerfile: "dockerfile", containerfile: "dockerfile", makefile: "makefile", gnumakefile: "makefile",
  "cmakelists.txt": "cmake", ".env": "dotenv", gemfile: "ruby", rakefile: "ruby", jenkinsfile: "groovy",
};

/** languageOf picks the fence language from the detected extension, then the file name. */
export function languageOf(filename: string, ext: string): string {
  const base = filename.split(/[\\/]/).pop()!.toLowerCase();
  const byName = FILE_NAME_LANGUAGES[base];
  if (byName) return byName;
  const fromName = base.includes(".") ? base.slice(base.lastIndexOf(".") + 1) : "";
  return SOURCE_LANGUAGES[ext.toLowerCase()] ?? SOURCE_LANGUAGES[fromName] ?? "";
}

/** convertCode renders `# filename` and the whole source fenced in its language. */
export const convertCode: Converter = async (input) => {
  const source = decodeText(input.bytes, input.declaredCharset).text.replace(/\r\n?/g, "\n");
  if (looksBinary(source)) throw new AppError("unreadable_document", `${input.filename} is not a text file (it contains binary data).`);
  if (!source.trim()) throw new AppError("empty_document", `${input.filename} contains no source text; send a file with content.`);
  const title = input.filename || "source";
  // joined by hand: joinBlocks' trailing-whitespace regex is slow on large sources
  const markdown = `${textHeading(1, title)}\n\n${fence(source, languageOf(input.filename, input.ext))}\n`;
  return { markdown, title, totalPages: 0, method: "text", warnings: [] };
};
