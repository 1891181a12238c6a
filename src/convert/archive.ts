/**
 * convertArchive reads a ZIP of documents: every supported entry is converted by its own converter
 * and written under a heading with its path. One entry that fails becomes a warning, not a failure
 * of the whole archive; an archive where nothing converts is an error. Archives inside archives are
 * not opened (a warning says so), and the ZIP's decompressed-bytes budget covers all entries.
 */
import { AppError } from "../errors";
import { sniffType } from "../ingest/sniff";
import { checkMarkdownSize, heading, joinBlocks, tidyMarkdown } from "./markdown";
import type { Conversion, ConvertContext, ConvertInput } from "./types";
import { ZipArchive } from "./zip";

/** MAX_ARCHIVE_ENTRIES: entries converted from one archive; the rest are listed in a warning. */
export const MAX_ARCHIVE_ENTRIES = 100;

type ConvertEntry = (input: ConvertInput, ctx: ConvertContext) => Promise<Conversion>;

export async function convertArchive(input: ConvertInput, ctx: ConvertContext, convertEntry: ConvertEntry): Promise<Conversion> {
  const zip = new ZipArchive(input.bytes, ctx.limits.maxDecompressedBytes, `ZIP '${input.filename}'`);
  const names = zip
    .names()
    .filter((n) => !n.endsWith("/") && !n.startsWith("__MACOSX/") && !n.split("/").pop()!.startsWith("."))
    .sort();
  const warnings: string[] = [];
  const blocks: string[] = [heading(1, input.filename)];
  let converted = 0;
  let pages = 0;
  for (const name of names) {
    ctx.signal.throwIfAborted();
    if (converted >= MAX_ARCHIVE_ENTRIES) {
      warnings.push(`only the first ${MAX_ARCHIVE_ENTRIES} entries were converted; ${names.length - MAX_ARCHIVE_ENTRIES} more were skipped`);
      break;
    }
    const bytes = zip.read(name)!;
    const detected = sniffType(bytes, name);
    if (detected.mime === "application/zip") {
      warnings.push(`${name}: archives inside archives are not opened`);
      continue;
    }
    try {
      const result = await convertEntry({ bytes, filename: name.split("/").pop()!, contentType: detected.mime, ext: detected.ext }, ctx);
      blocks.push(heading(2, name), demoteHeadings(result.markdown, 2));
      warnings.push(...result.warnings.map((w) => `${name}: ${w}`));
      pages += result.totalPages;
      converted++;
      checkMarkdownSize(blocks.reduce((sum, b) => sum + b.length, 0), ctx.limits, `ZIP '${input.filename}'`);
    } catch (error) {
      if (!(error instanceof AppError) || error.code === "timeout" || error.code === "document_too_large") throw error;
      warnings.push(`${name}: ${error.detail}`);
    }
  }
  if (converted === 0) {
    throw new AppError("unreadable_document", `ZIP '${input.filename}' holds no document that could be converted${warnings.length ? `: ${warnings.join("; ")}` : " (it is empty)"}`);
  }
  return { markdown: tidyMarkdown(joinBlocks(blocks)), title: input.filename, totalPages: pages, method: "archive", warnings };
}

/** demoteHeadings moves every ATX heading `levels` deeper (max 6), leaving fenced code alone. */
export function demoteHeadings(markdown: string, levels: number): string {
  let fenced = false;
  return markdown
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      if (fenced) return line;
      const m = line.match(/^(#{1,6}) (.*)$/);
      return m ? `${"#".repeat(Math.min(6, m[1]!.length + levels))} ${m[2]}` : line;
    })
    .join("\n");
}
