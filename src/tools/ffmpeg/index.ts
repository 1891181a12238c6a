/**
 * The ffmpeg/ffprobe adapter: probes audio and video files and extracts speech-ready audio.
 * Every document is written to a temp file first, because MP4/MOV files whose moov atom sits at
 * the end cannot be read from a pipe; the temp directory is removed whatever happens. At most
 * `concurrency` ffmpeg/ffprobe processes run at once.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "../../errors";
import type { MediaInfo, MediaTools } from "../types";
import { ProcessError, runProcess, toolUnavailable, withTempDir } from "../process";
import { Semaphore } from "../semaphore";

export interface FfmpegOptions {
  /** ffmpeg: the ffmpeg executable */
  ffmpeg: string;
  /** ffprobe: the ffprobe executable */
  ffprobe: string;
  /** timeoutMs: deadline for one ffmpeg or ffprobe run, in milliseconds */
  timeoutMs: number;
  /** workDir: where the per-call temp directories are created */
  workDir: string;
  /** concurrency: ffmpeg/ffprobe processes running at once */
  concurrency: number;
}

/** TranscriptionAudio is what speech-to-text receives: mono 16 kHz MP3 at 32 kbit/s. */
export interface TranscriptionAudio {
  audio: Uint8Array;
  filename: string;
  contentType: string;
}

/** TRANSCRIPTION_BITRATE: bits per second of the extracted audio; 32 kbit/s fits ~104 minutes in 25 MB. */
export const TRANSCRIPTION_BITRATE = 32_000;

/** DESCRIPTIVE_TAGS are the stream-level tags worth lifting to the file (Ogg keeps its tags on the stream). */
const DESCRIPTIVE_TAGS = ["title", "artist", "album", "album_artist", "date", "year", "genre", "track", "composer", "comment", "description", "copyright"];

export class FfmpegTools implements MediaTools {
  private readonly slots: Semaphore;

  constructor(private readonly options: FfmpegOptions) {
    this.slots = new Semaphore(Math.max(1, options.concurrency));
  }

  /** probe reads duration, container, tags and streams; rejects with unreadable_document when ffprobe cannot. */
  probe(bytes: Uint8Array, signal: AbortSignal): Promise<MediaInfo> {
    return withTempDir(this.options.workDir, "ffmpeg-", async (dir) => {
      const input = join(dir, "input");
      await writeFile(input, bytes);
      return this.probeFile(input, dir, signal);
    });
  }

  /**
   * audioForTranscription extracts the first audio stream as mono 16 kHz MP3 at 32 kbit/s
   * (Whisper resamples to 16 kHz mono anyway, so nothing it would use is lost). A file without
   * an audio stream is rejected with empty_document: it is readable, but has nothing to transcribe.
   */
  audioForTranscription(bytes: Uint8Array, signal: AbortSignal): Promise<TranscriptionAudio> {
    return withTempDir(this.options.workDir, "ffmpeg-", async (dir) => {
      const input = join(dir, "input");
      const output = join(dir, "audio.mp3");
      await writeFile(input, bytes);
      const info = await this.probeFile(input, dir, signal);
      if (!info.streams.some((s) => s.type === "audio")) {
        throw new AppError("empty_document", "the media file has no audio stream, so there is nothing to transcribe; send a file with sound.");
      }
      signal.throwIfAborted();
      await this.run(this.options.ffmpeg, [
        "-nostdin", "-hide_banner", "-v", "error", "-y",
        "-i", input,
        "-map", "0:a:0", "-vn", "-sn", "-dn", "-map_metadata", "-1",
        "-ac", "1", "-ar", "16000", "-c:a", "libmp3lame", "-b:a", String(TRANSCRIPTION_BITRATE),
        "-f", "mp3", output,
      ], dir, "extract audio for transcription", signal);
      const audio = new Uint8Array(await readFile(output));
      if (audio.length === 0) throw new AppError("unreadable_document", "the audio stream could not be decoded (corrupt or truncated media file).");
      return { audio, filename: "audio.mp3", contentType: "audio/mpeg" };
    });
  }

  /**
   * splitAudio cuts an MP3 made by audioForTranscription into consecutive pieces of at most
   * `maxBytes` each (by time, without re-encoding), for providers with an upload limit.
   */
  splitAudio(audio: Uint8Array, maxBytes: number, signal: AbortSignal): Promise<Uint8Array[]> {
    if (audio.length <= maxBytes) return Promise.resolve([audio]);
    return withTempDir(this.options.workDir, "ffmpeg-", async (dir) => {
      const input = join(dir, "audio.mp3");
      await writeFile(input, audio);
      const { durationSeconds } = await this.probeFile(input, dir, signal);
      const seconds = durationSeconds ?? (audio.length * 8) / TRANSCRIPTION_BITRATE;
      // 10 % headroom: segments cut on frame boundaries and the bitrate is only nominal
      const segmentSeconds = Math.max(1, Math.floor((seconds * 0.9 * maxBytes) / audio.length));
      signal.throwIfAborted();
      await this.run(this.options.ffmpeg, [
        "-nostdin", "-hide_banner", "-v", "error", "-y",
        "-i", input, "-map", "0:a:0", "-c", "copy",
        "-f", "segment", "-segment_time", String(segmentSeconds), "-reset_timestamps", "1",
        join(dir, "part%04d.mp3"),
      ], dir, "split audio for transcription", signal);
      const names = (await readdir(dir)).filter((n) => n.startsWith("part")).sort();
      const parts = await Promise.all(names.map(async (n) => new Uint8Array(await readFile(join(dir, n)))));
      const tooBig = parts.find((p) => p.length > maxBytes);
      if (tooBig || parts.length === 0) {
        throw new AppError("document_too_large", `the audio could not be split into pieces of at most ${maxBytes} bytes for the speech-to-text provider.`);
      }
      return parts;
    });
  }

  /**
   * videoFrame decodes one frame from `fraction` of the duration in (0.1 = 10 % in; the first frame
   * when the duration is unknown or the seek lands past the end) and returns it as PNG. Null when the
   * file has no video stream (audio only, or just cover art). A frame over `maxPixels` is refused
   * with document_too_large before anything is decoded.
   */
  videoFrame(bytes: Uint8Array, fraction: number, maxPixels: number, signal: AbortSignal): Promise<Uint8Array | null> {
    return withTempDir(this.options.workDir, "ffmpeg-", async (dir) => {
      const input = join(dir, "input");
      const output = join(dir, "frame.png");
      await writeFile(input, bytes);
      const info = await this.probeFile(input, dir, signal);
      const video = info.streams.find((s) => s.type === "video");
      if (!video) return null;
      if ((video.width ?? 0) * (video.height ?? 0) > maxPixels) {
        throw new AppError("document_too_large", `the video is ${video.width}x${video.height} pixels, more than the server's limit of ${maxPixels} pixels per frame`);
      }
      const seconds = info.durationSeconds ? info.durationSeconds * fraction : 0;
      for (const at of seconds > 0 ? [seconds, 0] : [0]) {
        signal.throwIfAborted();
        await this.run(this.options.ffmpeg, [
          "-nostdin", "-hide_banner", "-v", "error", "-y",
          "-ss", at.toFixed(3), "-i", input,
          "-map", "0:v:0", "-frames:v", "1", "-an", "-sn", "-dn", "-f", "image2", "-c:v", "png", output,
        ], dir, "decode a video frame", signal);
        const frame = await readFile(output).catch(() => null);
        if (frame && frame.length > 0) return new Uint8Array(frame);
      }
      throw new AppError("unreadable_document", "no video frame could be decoded (corrupt or truncated video file).");
    });
  }

  /**
   * stillToPng decodes a still image that sharp cannot read (BMP) with ffmpeg's image decoders and
   * returns it as PNG. The caller checks the dimensions first: ffmpeg decodes the whole picture.
   */
  stillToPng(bytes: Uint8Array, ext: string, signal: AbortSignal): Promise<Uint8Array> {
    return withTempDir(this.options.workDir, "ffmpeg-", async (dir) => {
      const input = join(dir, `input.${ext.replace(/[^a-z0-9]/gi, "")}`);
      const output = join(dir, "image.png");
      await writeFile(input, bytes);
      await this.run(this.options.ffmpeg, ["-nostdin", "-hide_banner", "-v", "error", "-y", "-i", input, "-frames:v", "1", "-f", "image2", "-c:v", "png", output], dir, `decode a .${ext} image`, signal);
      return new Uint8Array(await readFile(output));
    });
  }

  /** waveform draws the first audio stream as a `width` x `height` PNG waveform (transparent background). */
  waveform(bytes: Uint8Array, width: number, height: number, signal: AbortSignal): Promise<Uint8Array> {
    return withTempDir(this.options.workDir, "ffmpeg-", async (dir) => {
      const input = join(dir, "input");
      const output = join(dir, "waveform.png");
      await writeFile(input, bytes);
      const info = await this.probeFile(input, dir, signal);
      if (!info.streams.some((s) => s.type === "audio")) throw new AppError("unreadable_document", "the media file has neither a video nor an audio stream to draw.");
      signal.throwIfAborted();
      await this.run(this.options.ffmpeg, [
        "-nostdin", "-hide_banner", "-v", "error", "-y",
        "-i", input,
        "-filter_complex", `[0:a:0]aformat=channel_layouts=mono,showwavespic=s=${width}x${height}:colors=0x2f6db5[wave]`,
        "-map", "[wave]", "-frames:v", "1", "-f", "image2", "-c:v", "png", output,
      ], dir, "draw the audio waveform", signal);
      const picture = new Uint8Array(await readFile(output));
      if (picture.length === 0) throw new AppError("unreadable_document", "the audio stream could not be decoded (corrupt or truncated media file).");
      return picture;
    });
  }

  /**
   * encodeFrames turns JPEG frames (all the same size) into an animation: "mp4" is H.264 (yuv420p,
   * even dimensions, faststart, so browsers play it), "gif" uses a palette made from the frames.
   * ffmpeg reads the frames from files: puppeteer's own MP4 screencast hangs on ffmpeg 5.1.
   */
  encodeFrames(frames: Uint8Array[], fps: number, format: "gif" | "mp4", signal: AbortSignal): Promise<Uint8Array> {
    return withTempDir(this.options.workDir, "ffmpeg-", async (dir) => {
      await Promise.all(frames.map((frame, i) => writeFile(join(dir, `frame${String(i).padStart(4, "0")}.jpg`), frame)));
      const output = join(dir, `capture.${format}`);
      const encode = format === "mp4"
        ? ["-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4"]
        : ["-filter_complex", "[0:v]split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer", "-loop", "0", "-f", "gif"];
      await this.run(this.options.ffmpeg, [
        "-nostdin", "-hide_banner", "-v", "error", "-y",
        "-framerate", String(fps), "-i", join(dir, "frame%04d.jpg"),
        ...encode, output,
      ], dir, `encode the capture as ${format.toUpperCase()}`, signal);
      return new Uint8Array(await readFile(output));
    });
  }

  private async probeFile(path: string, dir: string, signal: AbortSignal): Promise<MediaInfo> {
    const { stdout } = await this.run(this.options.ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path], dir, "read media metadata", signal);
    let parsed: FfprobeOutput;
    try {
      parsed = JSON.parse(stdout.toString("utf8")) as FfprobeOutput;
    } catch (cause) {
      throw new AppError("unreadable_document", "ffprobe gave no readable description of the media file (corrupt or unsupported).", { cause });
    }
    const info = mediaInfoOf(parsed);
    if (!info.streams.some((s) => s.type === "audio" || s.type === "video")) {
      throw new AppError("unreadable_document", "the file holds no audio or video stream that could be read (corrupt or not a media file).");
    }
    return info;
  }

  /** run starts one ffmpeg/ffprobe process in a concurrency slot, seeing only the call's `dir`, and maps its failures to AppError. */
  private run(program: string, args: string[], dir: string, what: string, signal: AbortSignal) {
    return this.slots.run(async () => {
      try {
        return await runProcess(program, args, { timeoutMs: this.options.timeoutMs, signal, what, maxStdoutBytes: 20_000_000, sandbox: { dirs: [dir] } });
      } catch (error) {
        if (!(error instanceof ProcessError)) throw error;
        if (error.reason === "spawn") throw toolUnavailable(program, "ffmpeg", error);
        if (error.reason === "aborted") throw signal.reason ?? error;
        if (error.reason === "timeout") throw new AppError("timeout", `${what}: ffmpeg took longer than ${this.options.timeoutMs} ms`, { cause: error });
        throw new AppError("unreadable_document", `${what}: the media file could not be decoded (corrupt, truncated or unsupported).`, { cause: error });
      }
    }, signal);
  }
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  sample_rate?: string;
  channels?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  tags?: Record<string, string>;
  disposition?: { attached_pic?: number };
}

interface FfprobeOutput {
  format?: { format_name?: string; format_long_name?: string; duration?: string; tags?: Record<string, string> };
  streams?: FfprobeStream[];
}

/** mediaInfoOf maps ffprobe's JSON to MediaInfo; cover art counts as an "other" stream, not video. */
export function mediaInfoOf(probe: FfprobeOutput): MediaInfo {
  const format = probe.format ?? {};
  const rawStreams = probe.streams ?? [];
  const tags = lowerKeys(format.tags);
  for (const s of rawStreams) {
    const streamTags = lowerKeys(s.tags);
    for (const key of DESCRIPTIVE_TAGS) if (streamTags[key] && !tags[key]) tags[key] = streamTags[key];
  }
  const streams = rawStreams.map((s): MediaInfo["streams"][number] => {
    const codec = s.codec_name ?? "unknown";
    if (s.codec_type === "video" && !s.disposition?.attached_pic) {
      return { type: "video", codec, width: s.width, height: s.height, fps: frameRate(s.avg_frame_rate) ?? frameRate(s.r_frame_rate) };
    }
    if (s.codec_type === "audio") {
      const sampleRate = Number(s.sample_rate);
      return { type: "audio", codec, sampleRate: sampleRate > 0 ? sampleRate : undefined, channels: s.channels };
    }
    return { type: s.codec_type === "subtitle" ? "subtitle" : "other", codec };
  });
  return {
    durationSeconds: positive(format.duration) ?? maxOf(rawStreams.map((s) => positive(s.duration))),
    formatName: containerName(format.format_name, format.format_long_name, tags.major_brand),
    title: tags.title?.trim() || null,
    tags,
    streams,
  };
}

/**
 * containerName is ffprobe's long format name, except for the ISO family, where ffprobe says
 * "QuickTime / MOV" for MP4 and M4A too: the major brand tells them apart.
 */
function containerName(name: string | undefined, longName: string | undefined, majorBrand: string | undefined): string {
  const brand = majorBrand?.trim();
  if (name?.startsWith("mov,mp4") && brand && brand !== "qt") return `MPEG-4 (${brand})`;
  return longName || name || "unknown";
}

function lowerKeys(tags: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tags ?? {})) out[k.toLowerCase()] = String(v);
  return out;
}

/** frameRate parses ffprobe's "30000/1001" into frames per second (3 decimals); undefined for "0/0". */
function frameRate(ratio: string | undefined): number | undefined {
  const [num, den] = (ratio ?? "").split("/").map(Number);
  if (!num || !den || !Number.isFinite(num / den)) return undefined;
  return Math.round((num / den) * 1000) / 1000;
}

function positive(value: string | undefined): number | undefined {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? n : undefined;
}

function maxOf(values: Array<number | undefined>): number | null {
  const present = values.filter((v): v is number => v !== undefined);
  return present.length ? Math.max(...present) : null;
}
