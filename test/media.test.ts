/**
 * Audio and video to markdown with the real ffprobe/ffmpeg: corpus files (MP3, M4A, WAV) and
 * files generated here with ffmpeg (MP4, MOV, WebM, AVI, OGG, FLAC, a video without sound); the
 * transcript goes through GroqTranscriber to a fake Groq server speaking the real protocol.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGroqClient } from "../src/ai/groq";
import { GroqTranscriber } from "../src/ai/transcribe";
import { convertMedia, formatDuration, NO_AUDIO_WARNING, NO_PROVIDER_WARNING } from "../src/convert/media";
import type { Transcriber } from "../src/convert/types";
import { FfmpegTools } from "../src/tools/ffmpeg";
import { runProcess } from "../src/tools/process";
import { failureOf } from "./helpers/loopback";
import { startGroqServer, transcriptionReply, type GroqServer } from "./helpers/groqServer";
import { convertContext } from "./helpers/convert";

const FIXTURES = join(import.meta.dir, "fixtures");
const scratch = mkdtempSync(join(tmpdir(), "media-test-"));
const workDir = join(scratch, "work");
const generated = join(scratch, "generated");
const media = new FfmpegTools({ ffmpeg: "ffmpeg", ffprobe: "ffprobe", timeoutMs: 30_000, workDir, concurrency: 2 });

let server: GroqServer;

const context = (transcriber?: Transcriber) => convertContext({ tools: { media, transcriber } });

function groqTranscriber(opts: { maxUploadBytes?: number; split?: boolean } = {}) {
  const client = createGroqClient({ apiKey: "gsk_media_test_key", baseUrl: server.baseUrl, timeoutMs: 10_000 })!;
  return new GroqTranscriber({ client, timeoutMs: 10_000, maxUploadBytes: opts.maxUploadBytes, splitter: opts.split ? media : undefined });
}

function fixture(name: string) {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, name)));
  return { bytes, filename: name, contentType: "application/octet-stream", ext: name.split(".").pop()! };
}

function generatedFile(name: string) {
  const bytes = new Uint8Array(readFileSync(join(generated, name)));
  return { bytes, filename: name, contentType: "application/octet-stream", ext: name.split(".").pop()! };
}

/** ffmpeg runs the real ffmpeg to make a test file in `generated`. */
async function ffmpeg(args: string[], output: string) {
  await runProcess("ffmpeg", ["-nostdin", "-hide_banner", "-v", "error", "-y", ...args, join(generated, output)], { timeoutMs: 60_000, what: `generate ${output}`, sandbox: { dirs: [generated] } });
}

const video = (seconds: number) => ["-f", "lavfi", "-i", `testsrc=size=160x120:rate=25:duration=${seconds}`];
const tone = (seconds: number) => ["-f", "lavfi", "-i", `sine=frequency=440:sample_rate=44100:duration=${seconds}`];

beforeAll(async () => {
  for (const dir of [workDir, generated]) mkdirSync(dir, { recursive: true });
  await Promise.all([
    ffmpeg([...video(2), ...tone(2), "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-metadata", "title=Generated MP4", "-metadata", "artist=Test Artist"], "clip.mp4"),
    ffmpeg([...video(2), ...tone(2), "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-metadata", "title=Generated MOV"], "clip.mov"),
    ffmpeg([...video(1), ...tone(1), "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "100k", "-c:a", "libopus", "-ac", "2"], "clip.webm"),
    ffmpeg([...video(2), ...tone(2), "-c:v", "mpeg4", "-c:a", "libmp3lame"], "clip.avi"),
    ffmpeg([...tone(3), "-c:a", "libvorbis", "-metadata", "title=Generated OGG", "-metadata", "album=Test Album"], "tone.ogg"),
    ffmpeg([...tone(3), "-c:a", "flac", "-metadata", "title=Generated FLAC", "-metadata", "date=2024"], "tone.flac"),
    ffmpeg([...video(2), "-c:v", "libx264", "-pix_fmt", "yuv420p"], "silent.mp4"),
  ]);
});

beforeEach(async () => {
  server = await startGroqServer();
});
afterEach(() => {
  server.close();
  // temp files are removed after every call, successful or not
  expect(readdirSync(workDir)).toEqual([]);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("probe", () => {
  test("the MP3, M4A and WAV corpus files give durations and codecs", async () => {
    const mp3 = await media.probe(fixture("test.mp3").bytes, AbortSignal.timeout(30_000));
    expect(mp3.durationSeconds).toBeCloseTo(6.48, 1);
    expect(mp3.streams).toEqual([{ type: "audio", codec: "mp3", sampleRate: 48000, channels: 2 }]);
    expect(mp3.tags.artist).toBe("Artist Name Test String");
    const m4a = await media.probe(fixture("test.m4a").bytes, AbortSignal.timeout(30_000));
    expect(m4a.durationSeconds).toBeCloseTo(6.44, 1);
    expect(m4a.streams[0]).toMatchObject({ type: "audio", codec: "aac" });
    expect(m4a.formatName).toBe("MPEG-4 (mp42)");
    const wav = await media.probe(fixture("test.wav").bytes, AbortSignal.timeout(30_000));
    expect(wav.streams[0]).toMatchObject({ type: "audio", codec: "pcm_s16le", sampleRate: 48000, channels: 2 });
    expect(wav.formatName).toContain("WAV");
  });

  test("an MP4 with its moov atom at the end is read (the input is a seekable file)", async () => {
    const info = await media.probe(generatedFile("clip.mp4").bytes, AbortSignal.timeout(30_000));
    expect(info.durationSeconds).toBeCloseTo(2, 0);
    expect(info.title).toBe("Generated MP4");
    expect(info.streams).toContainEqual({ type: "video", codec: "h264", width: 160, height: 120, fps: 25 });
    expect(info.streams).toContainEqual({ type: "audio", codec: "aac", sampleRate: 44100, channels: 1 });
  });

  test("an abort stops the extraction and removes the temp files", async () => {
    const controller = new AbortController();
    const extraction = media.audioForTranscription(fixture("test.wav").bytes, controller.signal);
    setTimeout(() => controller.abort(new Error("deadline")), 20);
    const outcome = await extraction.then(() => "finished", (e: Error) => e.message);
    expect(outcome).toBe("deadline");
  });

  test("a missing ffprobe is tool_unavailable", async () => {
    const broken = new FfmpegTools({ ffmpeg: "/nonexistent/ffmpeg", ffprobe: "/nonexistent/ffprobe", timeoutMs: 5000, workDir, concurrency: 1 });
    const error = await failureOf(broken.probe(fixture("test.mp3").bytes, AbortSignal.timeout(5000)));
    expect(error.code).toBe("tool_unavailable");
  });
});

describe("convertMedia without a transcriber", () => {
  test("an MP3 gives its metadata and a warning that no speech-to-text provider is configured", async () => {
    const result = await convertMedia(fixture("test.mp3"), context());
    expect(result.method).toBe("metadata");
    expect(result.warnings).toEqual([NO_PROVIDER_WARNING]);
    expect(result.warnings[0]).toContain("GROQ_API_KEY");
    expect(result.title).toBe("f67a499e-a7d0-4ca3-a49b-358bd934ae3e");
    expect(result.markdown).toStartWith("# f67a499e-a7d0-4ca3-a49b-358bd934ae3e\n");
    expect(result.markdown).toContain("- **Duration:** 0:00:06");
    expect(result.markdown).toContain("- **Audio:** mp3, 48000 Hz, stereo");
    expect(result.markdown).toContain("- **Artist:** Artist Name Test String");
    expect(result.markdown).toContain("- **Album:** Album Name Test String");
    expect(result.markdown).not.toContain("Transcript");
    expect(result.transcribedSeconds).toBeUndefined();
    expect(server.requests).toHaveLength(0);
  });

  const cases: Array<[string, string[], string | null]> = [
    ["clip.mp4", ["- **Container:** MPEG-4 (isom)", "- **Video:** h264, 160x120, 25 fps", "- **Audio:** aac, 44100 Hz, mono", "- **Artist:** Test Artist"], "Generated MP4"],
    ["clip.mov", ["- **Container:** QuickTime / MOV", "- **Video:** h264, 160x120, 25 fps", "- **Audio:** aac"], "Generated MOV"],
    ["clip.webm", ["WebM", "- **Video:** vp9, 160x120, 25 fps", "- **Audio:** opus, 48000 Hz, stereo", "- **Duration:** 0:00:01"], null],
    ["clip.avi", ["AVI", "- **Video:** mpeg4, 160x120, 25 fps", "- **Audio:** mp3, 44100 Hz, mono"], null],
    ["tone.ogg", ["Ogg", "- **Audio:** vorbis, 44100 Hz, mono", "- **Album:** Test Album", "- **Duration:** 0:00:03"], "Generated OGG"],
    ["tone.flac", ["FLAC", "- **Audio:** flac, 44100 Hz, mono", "- **Date:** 2024"], "Generated FLAC"],
  ];
  for (const [name, expected, title] of cases) {
    test(`${name}: container, codecs and tags`, async () => {
      const result = await convertMedia(generatedFile(name), context());
      expect(result.title).toBe(title);
      expect(result.markdown).toStartWith(`# ${title ?? name}\n`);
      for (const line of expected) expect(result.markdown).toContain(line);
      expect(result.warnings).toEqual([NO_PROVIDER_WARNING]);
    });
  }

  test("a corrupt MP3 is unreadable_document", async () => {
    const noise = new Uint8Array(5000).map((_, i) => (i * 7919 + 13) % 251);
    const error = await failureOf(convertMedia({ bytes: noise, filename: "broken.mp3", contentType: "audio/mpeg", ext: "mp3" }, context()));
    expect(error.code).toBe("unreadable_document");
  });
});

describe("convertMedia with GroqTranscriber", () => {
  test("a video without sound warns that there is no audio stream and asks the provider nothing", async () => {
    const result = await convertMedia(generatedFile("silent.mp4"), context(groqTranscriber()));
    expect(result.warnings).toEqual([NO_AUDIO_WARNING]);
    expect(result.markdown).toContain("- **Video:** h264, 160x120, 25 fps");
    expect(result.markdown).not.toContain("Audio");
    expect(result.method).toBe("metadata");
    expect(server.requests).toHaveLength(0);
  });

  test("the transcript appears and the provider received a 32 kbit/s mono MP3 with the model name", async () => {
    server.reply("transcription", transcriptionReply("Hello from the test recording.", { duration: 6.48, language: "English" }));
    const result = await convertMedia(fixture("test.mp3"), context(groqTranscriber()));
    expect(result.method).toBe("metadata+transcript");
    expect(result.warnings).toEqual([]);
    expect(result.markdown).toContain("## Transcript\n\nHello from the test recording.");
    expect(result.markdown).toContain("- **Spoken language:** English");
    expect(result.transcribedSeconds).toBe(6.48);

    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.path).toBe("/openai/v1/audio/transcriptions");
    expect(request.headers.authorization).toBe("Bearer gsk_media_test_key");
    expect(request.form).toMatchObject({ model: "whisper-large-v3-turbo", response_format: "verbose_json" });
    expect(request.file!.name).toBe("audio.mp3");
    // 6.48 s at 32 kbit/s is about 25.9 kB
    expect(request.file!.size).toBeGreaterThan(6.48 * 4000 * 0.9);
    expect(request.file!.size).toBeLessThan(6.48 * 4000 * 1.2);
    const uploaded = await media.probe(request.file!.bytes, AbortSignal.timeout(30_000));
    expect(uploaded.streams).toEqual([{ type: "audio", codec: "mp3", sampleRate: 16000, channels: 1 }]);
  });

  test("audio above the upload limit is split by time and transcribed piece by piece, in order", async () => {
    server.reply("transcription", ...["one", "two", "three", "four", "five"].map((t) => transcriptionReply(`Part ${t}.`, { duration: 2 })));
    const result = await convertMedia(fixture("test.wav"), context(groqTranscriber({ maxUploadBytes: 12_000, split: true })));
    const pieces = server.requests.length;
    expect(pieces).toBeGreaterThanOrEqual(3);
    for (const r of server.requests) expect(r.file!.size).toBeLessThanOrEqual(12_000);
    expect(server.requests.map((r) => r.file!.name)).toEqual(Array.from({ length: pieces }, (_, i) => `audio-part${i + 1}.mp3`));
    expect(result.markdown).toContain("## Transcript\n\nPart one.\n\nPart two.\n\nPart three.");
    expect(result.transcribedSeconds).toBe(2 * pieces);
  });

  test("audio above the upload limit without a splitter is document_too_large", async () => {
    const error = await failureOf(convertMedia(fixture("test.mp3"), context(groqTranscriber({ maxUploadBytes: 12_000 }))));
    expect(error.code).toBe("document_too_large");
    expect(error.detail).toContain("12000");
    expect(server.requests).toHaveLength(0);
  });

  test("empty text from the provider is a 'no speech detected' warning, not an empty success", async () => {
    server.reply("transcription", transcriptionReply("  ", { duration: 3 }));
    const result = await convertMedia(generatedFile("tone.flac"), context(groqTranscriber()));
    expect(result.warnings.join(" ")).toContain("no speech detected");
    expect(result.markdown).not.toContain("## Transcript");
    expect(result.markdown).toContain("# Generated FLAC");
    expect(result.transcribedSeconds).toBe(3);
  });

  test("a provider failure fails the conversion with provider_error (after one retry)", async () => {
    const broken = { status: 500, json: { error: { message: "whisper crashed" } } };
    server.reply("transcription", broken, broken);
    const error = await failureOf(convertMedia(generatedFile("clip.mp4"), context(groqTranscriber())));
    expect(error.code).toBe("provider_error");
    expect(server.requests).toHaveLength(2);
  });

  test("a rate-limited provider fails the conversion with ai_unavailable and Retry-After", async () => {
    const busy = { status: 429, json: { error: { message: "rate limit" } }, headers: { "retry-after": "600" } };
    server.reply("transcription", busy);
    const error = await failureOf(convertMedia(fixture("test.m4a"), context(groqTranscriber())));
    expect(error.code).toBe("ai_unavailable");
    expect(error.headers["Retry-After"]).toBe("600");
  });
});

test("formatDuration renders h:mm:ss", () => {
  expect(formatDuration(0)).toBe("0:00:00");
  expect(formatDuration(6.48)).toBe("0:00:06");
  expect(formatDuration(3725.6)).toBe("1:02:06");
});
