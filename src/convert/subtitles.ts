/**
 * Subtitles and captions (WebVTT, SubRip SRT) -> a transcript: the cue text in order, without cue
 * numbers, identifiers, timings, styles or notes. A speaker (`<v Name>` in WebVTT, a "NAME:" lead
 * is kept as written) becomes a bold label, and consecutive cues of one speaker join into one
 * paragraph; cues without speakers join into paragraphs at pauses of PAUSE_SECONDS or more.
 * Cues repeated by roll-up captions (each cue repeating the previous line) are written once.
 */
import { AppError } from "../errors";
import { decodedText } from "./text";
import { tidyMarkdown } from "./markdown";
import type { Converter } from "./types";

/** PAUSE_SECONDS: a gap between cues this long (seconds) starts a new paragraph */
const PAUSE_SECONDS = 2;

interface Cue {
  start: number;
  end: number;
  speaker: string;
  lines: string[];
}

const TIMING = /^\s*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})\s+-->\s+((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})/;

function seconds(stamp: string): number {
  const parts = stamp.replace(",", ".").split(":").map(Number);
  return parts.reduce((total, p) => total * 60 + p, 0);
}

/** decodeCueEntities decodes the character references WebVTT allows in cue text. */
function decodeCueEntities(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", nbsp: " ", lrm: "", rlm: "", quot: '"', apos: "'" };
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return named[ref.toLowerCase()] ?? whole;
  });
}

/** cueText strips cue markup (`<c.x>`, `<i>`, `<00:01.000>`, SRT `<font>` and `{\an8}`), keeping the speaker of `<v Name>`. */
function cueText(raw: string[]): { speaker: string; lines: string[] } {
  let speaker = "";
  const lines = raw.map((line) => {
    const voice = /<v(?:\.[\w.-]+)?\s+([^>]+)>/.exec(line);
    if (voice && !speaker) speaker = voice[1]!.trim();
    return decodeCueEntities(line.replace(/<[^>]*>/g, "").replace(/\{\\[^}]*\}/g, "")).replace(/\s+/g, " ").trim();
  });
  return { speaker, lines: lines.filter(Boolean) };
}

/** parseCues reads the cues of a WebVTT or SRT file: blocks separated by blank lines, each with a timing line. */
function parseCues(text: string): Cue[] {
  const cues: Cue[] = [];
  const blocks = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/);
  for (const block of blocks) {
    const lines = block.split("\n").filter((l) => l.trim() !== "" || false);
    const at = lines.findIndex((l) => TIMING.test(l));
    if (at < 0 || at > 1) continue; // the header, NOTE, STYLE and REGION blocks have no timing
    const timing = TIMING.exec(lines[at]!)!;
    const { speaker, lines: body } = cueText(lines.slice(at + 1));
    if (body.length) cues.push({ start: seconds(timing[1]!), end: seconds(timing[2]!), speaker, lines: body });
  }
  return cues;
}

/** transcript joins the cues into paragraphs by speaker and pauses, dropping roll-up repeats. */
function transcript(cues: Cue[]): string {
  const paragraphs: Array<{ speaker: string; text: string[] }> = [];
  let lastEnd = -Infinity;
  let previous: string[] = [];
  for (const cue of cues) {
    // roll-up captions repeat the last line(s) of the previous cue first
    let lines = cue.lines;
    if (lines.every((l) => previous.includes(l))) lines = [];
    while (lines.length > 1 && previous.includes(lines[0]!)) lines = lines.slice(1);
    previous = cue.lines;
    if (!lines.length) continue;
    const last = paragraphs[paragraphs.length - 1];
    const sameSpeaker = last && last.speaker === cue.speaker;
    const pause = cue.start - lastEnd >= PAUSE_SECONDS;
    if (last && sameSpeaker && (cue.speaker !== "" || !pause)) last.text.push(...lines);
    else paragraphs.push({ speaker: cue.speaker, text: [...lines] });
    lastEnd = cue.end;
  }
  return paragraphs
    .map((p) => {
      const text = p.text.join(" ").replace(/\s+/g, " ").trim();
      return p.speaker ? `**${p.speaker}:** ${text}` : text;
    })
    .join("\n\n");
}

/** convertSubtitles writes a WebVTT or SRT file as a transcript. */
export const convertSubtitles: Converter = async (input) => {
  const text = decodedText(input, "is not a subtitle file (it contains binary data).");
  const cues = parseCues(text);
  if (!cues.length) {
    throw new AppError("empty_document", `${input.filename} has no cues (no 'start --> end' timing line followed by text); send a WebVTT or SRT file with captions.`);
  }
  const title = /^WEBVTT[ \t]+(.+)$/m.exec(text.slice(0, 512))?.[1]?.trim() || null;
  const body = transcript(cues);
  const markdown = tidyMarkdown(title ? `# ${title}\n\n${body}` : body);
  return { markdown, title, totalPages: 0, method: "text", warnings: [] };
};
