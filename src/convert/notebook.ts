/**
 * Jupyter notebooks (.ipynb, nbformat 4): markdown cells as written, code cells fenced in the
 * kernel's language, and what the cells printed (streams, plain-text results, errors) fenced as
 * output. Images in outputs are noted, not embedded.
 */
import { AppError } from "../errors";
import { fence, joinBlocks, tidyMarkdown } from "./markdown";
import { decodeText } from "./charset";
import type { Converter, ConvertInput } from "./types";

/** MultilineText is how nbformat stores text: one string or a list of lines. */
type MultilineText = string | string[];

interface NotebookOutput {
  output_type?: string;
  name?: string;
  text?: MultilineText;
  data?: Record<string, MultilineText>;
  ename?: string;
  evalue?: string;
}

interface NotebookCell {
  cell_type?: string;
  source?: MultilineText;
  outputs?: NotebookOutput[];
}

interface Notebook {
  cells?: NotebookCell[];
  metadata?: {
    title?: unknown;
    kernelspec?: { language?: unknown; name?: unknown };
    language_info?: { name?: unknown };
  };
  nbformat?: number;
}

/** IMAGE_TYPES are the output MIME types reported as an image note. */
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/svg+xml"];

/** joinText turns nbformat's string-or-lines into one string; a member that is no string is no text (an array's join would stringify a nested one, recursively: 50 000 deep ran the stack out). */
function joinText(value: MultilineText | undefined): string {
  if (Array.isArray(value)) return value.map((line) => (typeof line === "string" ? line : "")).join("");
  return typeof value === "string" ? value : "";
}

/** stripAnsi removes terminal colour codes that tracebacks carry. */
function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "");
}

/** parseNotebook reads the JSON and checks it has the shape of a notebook. */
function parseNotebook(input: ConvertInput): Notebook {
  let value: unknown;
  try {
    value = JSON.parse(decodeText(input.bytes, input.declaredCharset).text);
  } catch (cause) {
    throw new AppError("unreadable_document", `${input.filename} is not a Jupyter notebook: it is not valid JSON; save it again from Jupyter.`, { cause });
  }
  const notebook = value as Notebook;
  if (!notebook || typeof notebook !== "object" || !Array.isArray(notebook.cells)) {
    const hint = notebook && typeof notebook === "object" && "worksheets" in notebook ? " (nbformat 3: convert it with `jupyter nbconvert --to notebook`)" : "";
    throw new AppError("unreadable_document", `${input.filename} is not a Jupyter notebook: it has no 'cells' list${hint}.`);
  }
  return notebook;
}

/** kernelLanguage is the fence language of code cells: kernelspec, then language_info, then python. */
function kernelLanguage(notebook: Notebook): string {
  const candidates = [notebook.metadata?.kernelspec?.language, notebook.metadata?.language_info?.name];
  const found = candidates.find((c): c is string => typeof c === "string" && c.trim() !== "");
  return (found ?? "python").trim().toLowerCase();
}

/** outputBlocks renders one code cell's outputs. */
function outputBlocks(outputs: NotebookOutput[]): string[] {
  const blocks: string[] = [];
  for (const output of outputs) {
    if (output.output_type === "stream") {
      const text = stripAnsi(joinText(output.text));
      if (text.trim()) blocks.push(fence(text, "output"));
    } else if (output.output_type === "execute_result" || output.output_type === "display_data") {
      const data = output.data ?? {};
      const image = IMAGE_TYPES.find((type) => type in data);
      const plain = joinText(data["text/plain"]);
      if (image) blocks.push(`*[image output: ${image}]*`);
      else if (plain.trim()) blocks.push(fence(stripAnsi(plain), "output"));
      else if (data["text/markdown"]) blocks.push(joinText(data["text/markdown"]));
    } else if (output.output_type === "error") {
      blocks.push(fence(`${output.ename ?? "Error"}: ${output.evalue ?? ""}`, "output"));
    }
  }
  return blocks;
}

/** firstHeading is the text of the first markdown heading in the notebook's markdown cells. */
function firstHeading(cells: NotebookCell[]): string | null {
  for (const cell of cells) {
    if (cell.cell_type !== "markdown") continue;
    const match = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/m.exec(joinText(cell.source));
    if (match) return match[1]!;
  }
  return null;
}

/** convertNotebook renders the cells in order. */
export const convertNotebook: Converter = async (input) => {
  const notebook = parseNotebook(input);
  const cells = notebook.cells!;
  const language = kernelLanguage(notebook);
  const blocks: string[] = [];
  for (const cell of cells) {
    const source = joinText(cell.source);
    if (cell.cell_type === "markdown") blocks.push(source);
    else if (cell.cell_type === "code") {
      if (source.trim()) blocks.push(fence(source, language));
      blocks.push(...outputBlocks(Array.isArray(cell.outputs) ? cell.outputs : []));
    } else if (cell.cell_type === "raw" && source.trim()) blocks.push(fence(source));
  }
  const markdown = joinBlocks(blocks);
  if (!markdown.trim()) throw new AppError("empty_document", `${input.filename} has no cell with content.`);
  const metaTitle = typeof notebook.metadata?.title === "string" && notebook.metadata.title.trim() ? notebook.metadata.title.trim() : null;
  return { markdown: tidyMarkdown(markdown), title: firstHeading(cells) ?? metaTitle, totalPages: 0, method: "text", warnings: [] };
};
