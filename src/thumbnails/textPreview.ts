/**
 * textPreview draws the first lines of a text, markdown, code or data file as a page: an SVG of
 * monospace lines on white (markdown headings in bold), which sharp renders to a picture. Only the
 * first TEXT_SAMPLE_BYTES are decoded, so a 50 MB log costs no more than a short note.
 */
import { decodeText } from "../convert/charset";

/** TEXT_SAMPLE_BYTES: how much of the file is read for the preview */
const TEXT_SAMPLE_BYTES = 16 * 1024;
const MAX_LINES = 40;
const MAX_COLUMNS = 100;
const FONT_SIZE = 14;
const LINE_HEIGHT = 18;
const MARGIN = 16;
/** PAGE_WIDTH: the drawn page is this wide in pixels (about 100 columns of 14 px monospace) */
const PAGE_WIDTH = 880;
const TAB = "    ";

/** textPreviewSvg returns the SVG of the file's first lines; `markdown` shows heading lines in bold. */
export function textPreviewSvg(bytes: Uint8Array, markdown: boolean): Uint8Array {
  const { text } = decodeText(bytes.subarray(0, TEXT_SAMPLE_BYTES));
  const lines = text.replace(/\r\n?/g, "\n").split("\n").slice(0, MAX_LINES).map(cleanLine);
  while (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const height = Math.max(MARGIN * 2 + LINE_HEIGHT, MARGIN * 2 + lines.length * LINE_HEIGHT);
  const rows = lines.map((line, i) => {
    const bold = markdown && /^#{1,6}\s/.test(line) ? ' font-weight="bold"' : "";
    return `<text x="${MARGIN}" y="${MARGIN + (i + 1) * LINE_HEIGHT - 4}"${bold} xml:space="preserve">${escapeXml(line)}</text>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${PAGE_WIDTH}" height="${height}" viewBox="0 0 ${PAGE_WIDTH} ${height}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>` +
    `<g font-family="DejaVu Sans Mono, Liberation Mono, monospace" font-size="${FONT_SIZE}" fill="#1f2328">${rows.join("")}</g></svg>`;
  return new TextEncoder().encode(svg);
}

/** cleanLine expands tabs, drops control characters and cuts the line at MAX_COLUMNS. */
function cleanLine(line: string): string {
  const plain = line.replace(/\t/g, TAB).replace(/[\u0000-\u0008\u000b-\u001f\u007f\ufeff]/g, "");
  const chars = [...plain];
  return chars.length > MAX_COLUMNS ? `${chars.slice(0, MAX_COLUMNS - 1).join("")}…` : plain;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
