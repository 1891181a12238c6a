/**
 * External programs the service drives, how to find them, and what each enables. Only tools/
 * spawns processes; `detectPrograms` is what `docintel doctor` reports.
 */
import { tmpdir } from "node:os";
import { toolEnv } from "./sandbox";

export interface ProgramSpec {
  name: string;
  /** executables to look for on PATH, first found wins */
  candidates: string[];
  versionArgs: string[];
  enables: string[];
  debianPackage: string;
}

/**
 * CHROMIUM_CANDIDATES are the browsers --chromium-path=auto looks for, best first: the headless
 * shell (Chromium's automation build, no browser UI machinery) spends about a third of the full
 * browser's CPU per new page (measured: 50 vs 150 ms in the browser process).
 */
export const CHROMIUM_CANDIDATES = [
  "/usr/lib/chromium/chromium-headless-shell", // Debian's /usr/bin wrapper does not exec: the browser's pid would be the shell's
  "chromium-headless-shell",
  "chromium",
  "chromium-browser",
];

export const PROGRAMS: ProgramSpec[] = [
  { name: "chromium", candidates: CHROMIUM_CANDIDATES, versionArgs: ["--version"], enables: ["screenshots", "web page markdown", "web page thumbnails"], debianPackage: "chromium-headless-shell" },
  { name: "soffice", candidates: ["soffice", "libreoffice"], versionArgs: ["--version"], enables: ["DOC/PPT/XLS/ODF/iWork conversion", "office thumbnails"], debianPackage: "libreoffice-core libreoffice-writer libreoffice-calc libreoffice-impress" },
  { name: "python3 (UNO)", candidates: ["/usr/bin/python3"], versionArgs: ["-c", "import uno; print('uno ok')"], enables: ["warm LibreOffice (otherwise a cold soffice per document)"], debianPackage: "python3-uno" },
  { name: "tesseract", candidates: ["tesseract"], versionArgs: ["--version"], enables: ["OCR of images and scanned PDFs"], debianPackage: "tesseract-ocr tesseract-ocr-eng" },
  { name: "ffmpeg", candidates: ["ffmpeg"], versionArgs: ["-version"], enables: ["audio/video metadata and transcription input", "video thumbnails", "GIF/MP4 screenshots"], debianPackage: "ffmpeg" },
  { name: "ffprobe", candidates: ["ffprobe"], versionArgs: ["-version"], enables: ["media duration and codecs"], debianPackage: "ffmpeg" },
  { name: "pdftoppm", candidates: ["pdftoppm"], versionArgs: ["-v"], enables: ["PDF page images (OCR, thumbnails, vision)"], debianPackage: "poppler-utils" },
  { name: "pdfimages", candidates: ["pdfimages"], versionArgs: ["-v"], enables: ["OCR of pictures inside PDF pages"], debianPackage: "poppler-utils" },
  { name: "pdftotext", candidates: ["pdftotext"], versionArgs: ["-v"], enables: ["PDF benchmark baseline"], debianPackage: "poppler-utils" },
  { name: "7-Zip", candidates: ["7zz", "7z"], versionArgs: ["i"], enables: ["7z archives"], debianPackage: "7zip" },
  { name: "bzip2", candidates: ["bzip2"], versionArgs: ["--help"], enables: ["bz2 and tar.bz2 archives"], debianPackage: "bzip2" },
  { name: "xz", candidates: ["xz"], versionArgs: ["--version"], enables: ["xz and tar.xz archives"], debianPackage: "xz-utils" },
  { name: "mutool", candidates: ["mutool"], versionArgs: ["-v"], enables: ["XPS and OpenXPS documents"], debianPackage: "mupdf-tools" },
  { name: "heif-convert", candidates: ["heif-convert"], versionArgs: ["-h"], enables: ["HEIC images"], debianPackage: "libheif-examples" },
];

/** firstInstalled is the path of the first candidate (a name on PATH or an absolute path) that is an executable here, or null. */
export function firstInstalled(candidates: readonly string[]): string | null {
  for (const candidate of candidates) {
    const path = Bun.which(candidate);
    if (path) return path;
  }
  return null;
}

export interface ProgramStatus {
  name: string;
  path: string | null;
  version: string | null;
  enables: string[];
  debianPackage: string;
}

/** firstLine of a version banner, trimmed to something readable */
function firstLine(text: string): string | null {
  const line = text.split("\n").map((l) => l.trim()).find((l) => l.length > 0);
  return line ? line.slice(0, 120) : null;
}

async function versionOf(path: string, args: string[], timeoutMs: number): Promise<string | null> {
  try {
    // a version banner needs no secrets: the same allow-listed environment the tools get
    const proc = Bun.spawn([path, ...args], { stdout: "pipe", stderr: "pipe", stdin: "ignore", env: toolEnv(tmpdir(), tmpdir()) });
    const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    await proc.exited;
    clearTimeout(timer);
    return firstLine(out) ?? firstLine(err);
  } catch {
    return null;
  }
}

export async function detectPrograms(timeoutMs = 15_000): Promise<ProgramStatus[]> {
  return Promise.all(
    PROGRAMS.map(async (spec) => {
      const path = firstInstalled(spec.candidates);
      const version = path ? await versionOf(path, spec.versionArgs, timeoutMs) : null;
      return { name: spec.name, path, version, enables: spec.enables, debianPackage: spec.debianPackage };
    }),
  );
}
