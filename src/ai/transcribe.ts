/**
 * Speech-to-text through Groq Whisper. Audio above the provider's upload limit (25 MB) is cut by
 * time into pieces that fit (with ffmpeg, through `splitter`) and transcribed piece by piece, in
 * order; without a splitter such audio is refused with document_too_large.
 */
import type Groq from "groq-sdk";
import { toFile } from "groq-sdk";
import { AppError } from "../errors";
import { withProviderPolicy } from "./groq";

/** Transcriber is the AI provider's speech-to-text (Groq Whisper). */
export interface Transcriber {
  transcribe(audio: { audio: Uint8Array; filename: string; contentType: string }, signal: AbortSignal): Promise<{ text: string; language: string | null; durationSeconds: number | null }>;
}

/** GROQ_MAX_UPLOAD_BYTES: the provider's limit for one uploaded audio file. */
export const GROQ_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

/** AudioSplitter cuts audio into consecutive pieces of at most maxBytes (FfmpegTools implements it). */
export interface AudioSplitter {
  splitAudio(audio: Uint8Array, maxBytes: number, signal: AbortSignal): Promise<Uint8Array[]>;
}

export interface GroqTranscriberOptions {
  client: Groq;
  /** model: the Whisper model; default whisper-large-v3-turbo */
  model?: string;
  /** timeoutMs: deadline for one request to the provider */
  timeoutMs: number;
  /** splitter: cuts audio that is over maxUploadBytes; without one such audio is refused */
  splitter?: AudioSplitter;
  /** maxUploadBytes: largest audio sent in one request; default GROQ_MAX_UPLOAD_BYTES */
  maxUploadBytes?: number;
}

type Audio = Parameters<Transcriber["transcribe"]>[0];
type Transcript = Awaited<ReturnType<Transcriber["transcribe"]>>;

/** VerboseTranscription is the part of Groq's verbose_json answer we use. */
interface VerboseTranscription {
  text?: string;
  language?: string;
  /** duration: seconds of audio the provider transcribed */
  duration?: number;
}

export class GroqTranscriber implements Transcriber {
  private readonly model: string;
  private readonly maxUploadBytes: number;

  constructor(private readonly options: GroqTranscriberOptions) {
    this.model = options.model ?? "whisper-large-v3-turbo";
    this.maxUploadBytes = options.maxUploadBytes ?? GROQ_MAX_UPLOAD_BYTES;
  }

  async transcribe(audio: Audio, signal: AbortSignal): Promise<Transcript> {
    const pieces = await this.piecesOf(audio, signal);
    const texts: string[] = [];
    let language: string | null = null;
    let durationSeconds: number | null = 0;
    for (const [i, piece] of pieces.entries()) {
      signal.throwIfAborted();
      const name = pieces.length === 1 ? audio.filename : partName(audio.filename, i);
      const result = await this.transcribeOne({ ...audio, audio: piece, filename: name }, signal);
      if (result.text?.trim()) texts.push(result.text.trim());
      language ??= result.language || null;
      durationSeconds = durationSeconds !== null && typeof result.duration === "number" ? durationSeconds + result.duration : null;
    }
    return { text: texts.join("\n\n"), language, durationSeconds: durationSeconds === null ? null : Math.round(durationSeconds * 1000) / 1000 };
  }

  private async piecesOf(audio: Audio, signal: AbortSignal): Promise<Uint8Array[]> {
    if (audio.audio.length <= this.maxUploadBytes) return [audio.audio];
    if (!this.options.splitter) {
      throw new AppError("document_too_large", `the extracted audio is ${audio.audio.length} bytes, above the speech-to-text provider's limit of ${this.maxUploadBytes} bytes; send a shorter recording.`);
    }
    return this.options.splitter.splitAudio(audio.audio, this.maxUploadBytes, signal);
  }

  private transcribeOne(audio: Audio, signal: AbortSignal): Promise<VerboseTranscription> {
    return withProviderPolicy(
      "transcribe audio",
      async (callSignal) => {
        const file = await toFile(audio.audio, audio.filename, { type: audio.contentType });
        const result = await this.options.client.audio.transcriptions.create(
          { file, model: this.model, response_format: "verbose_json" },
          { signal: callSignal, timeout: this.options.timeoutMs, maxRetries: 0 },
        );
        return result as VerboseTranscription;
      },
      { signal },
    );
  }
}

/** partName numbers the pieces of a split file: audio.mp3 -> audio-part2.mp3. */
function partName(filename: string, index: number): string {
  const dot = filename.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [filename.slice(0, dot), filename.slice(dot)] : [filename, ""];
  return `${stem}-part${index + 1}${ext}`;
}
