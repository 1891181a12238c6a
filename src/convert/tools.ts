/**
 * createConvertTools builds the supervisors of the external programs from the config. Each starts
 * its processes lazily, on first use, so a service that never converts a DOC never starts soffice.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config";
import type { ConvertLimits, ConvertTools, ConvertWorkers } from "./types";
import { ChromiumSupervisor } from "../tools/chromium";
import { LibreOffice } from "../tools/libreoffice";
import { Tesseract } from "../tools/tesseract";
import { FfmpegTools } from "../tools/ffmpeg";
import type Groq from "groq-sdk";
import { createGroqClient } from "../ai/groq";
import { GroqTranscriber } from "../ai/transcribe";
import { detectIsolation } from "../tools/sandbox";

/** OFFICE_JOBS_PER_INSTANCE: a warm soffice is restarted after this many conversions (bounds leaks). */
const OFFICE_JOBS_PER_INSTANCE = 200;

/** createConvertTools builds the tools; `groq` is the provider client (speech-to-text), undefined when none is configured; `notice` hears what the operator should know (a tool running slower than it could). */
export function createConvertTools(config: Config, pool: ConvertWorkers, groq: Groq | undefined = providerClientOf(config), notice: (message: string, detail: string) => void = () => {}): ConvertTools {
  detectIsolation(config.bwrapPath); // once, before any tool runs; serve logs the outcome
  const tmp = join(config.dataDir, "tmp");
  const timeoutMs = config.convert.timeoutMs;
  const mediaDir = join(tmp, "media");
  mkdirSync(mediaDir, { recursive: true });
  const media = new FfmpegTools({ ffmpeg: "ffmpeg", ffprobe: "ffprobe", timeoutMs, workDir: mediaDir, concurrency: config.workers });
  return {
    pool,
    office: new LibreOffice({
      binary: "soffice",
      python: "/usr/bin/python3",
      instances: config.officeInstances,
      timeoutMs,
      jobsPerInstance: OFFICE_JOBS_PER_INSTANCE,
      workDir: join(tmp, "libreoffice"),
    }),
    ocr: new Tesseract({ concurrency: config.ocrConcurrency, timeoutMs, memoryBytes: config.convert.memoryBytes, onWarmUnavailable: (why) => notice("warm OCR processes unavailable: each image runs the tesseract program", why) }),
    media,
    browser: new ChromiumSupervisor({
      executablePath: config.chromium.path,
      maxConcurrentPages: config.chromium.pages,
      pagesPerBrowser: config.chromium.restartAfter,
      userDataRoot: join(tmp, "chromium"),
      launchTimeoutMs: 30_000,
      egress: { allowPrivate: config.allowPrivateUrls, upstream: config.outboundProxy },
    }),
    transcriber: groq ? new GroqTranscriber({ client: groq, model: config.groq.transcriptionModel, timeoutMs, splitter: media }) : undefined,
  };
}

/** providerClientOf makes the AI provider's client from the config; undefined without GROQ_API_KEY. */
export function providerClientOf(config: Config): Groq | undefined {
  return createGroqClient({ apiKey: config.groq.apiKey, baseUrl: config.groq.baseUrl, timeoutMs: config.convert.timeoutMs });
}

export function convertLimitsOf(config: Config): ConvertLimits {
  return { maxDecompressedBytes: config.convert.maxDecompressedBytes, maxPixels: config.convert.maxPixels, maxPages: config.convert.maxPages, maxMarkdownChars: config.convert.maxMarkdownChars };
}

/** closeConvertTools stops every program the tools started; safe to call when none was started. */
export async function closeConvertTools(tools: ConvertTools): Promise<void> {
  tools.ocr.close?.();
  await Promise.allSettled([tools.browser.close(), tools.office.close()]);
}
