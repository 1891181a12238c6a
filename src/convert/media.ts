/**
 * Audio and video to markdown: a metadata block always (ffprobe), then the transcript when a
 * speech-to-text provider is configured. Steps: probe -> extract audio -> transcribe -> render.
 * A transcript that was asked for and failed fails the conversion (the provider's error code
 * reaches the client) rather than being dropped, so a user never pays for, or trusts, a
 * metadata-only answer they did not expect.
 */
import type { MediaInfo } from "../tools/types";
import type { Conversion, ConvertContext, ConvertInput, Converter } from "./types";
import { escapeText, heading, textHeading, joinBlocks, metadataBlock, tidyMarkdown } from "./markdown";

/** NO_PROVIDER_WARNING: the warning when audio could be transcribed but no provider is configured. */
export const NO_PROVIDER_WARNING = "No speech-to-text provider is configured on this server (set GROQ_API_KEY to enable transcription); the markdown carries the media metadata only.";
export const NO_AUDIO_WARNING = "The file has no audio stream, so there is no transcript; the markdown carries the media metadata only.";
export const NO_SPEECH_WARNING = "The speech-to-text provider detected no speech in the audio (no speech detected); the markdown carries the media metadata only.";

/** TAG_LABELS: the descriptive tags shown in the metadata block, in this order. */
const TAG_LABELS: Array<[string, string]> = [
  ["artist", "Artist"],
  ["album_artist", "Album artist"],
  ["album", "Album"],
  ["composer", "Composer"],
  ["genre", "Genre"],
  ["track", "Track"],
  ["date", "Date"],
  ["year", "Year"],
  ["creation_time", "Created"],
  ["description", "Description"],
  ["comment", "Comment"],
  ["copyright", "Copyright"],
];

interface TranscriptResult {
  text: string;
  language: string | null;
  seconds: number;
}

export const convertMedia: Converter = async (input: ConvertInput, ctx: ConvertContext): Promise<Conversion> => {
  const info = await ctx.tools.media.probe(input.bytes, ctx.signal);
  ctx.signal.throwIfAborted();

  const warnings: string[] = [];
  const hasAudio = info.streams.some((s) => s.type === "audio");
  let transcript: TranscriptResult | null = null;
  if (!hasAudio) warnings.push(NO_AUDIO_WARNING);
  else if (!ctx.tools.transcriber) warnings.push(NO_PROVIDER_WARNING);
  else {
    transcript = await transcribe(input, info, ctx);
    if (!transcript.text.trim()) warnings.push(NO_SPEECH_WARNING);
  }

  const title = info.title ?? null;
  const markdown = joinBlocks([
    textHeading(1, title ?? input.filename),
    metadataBlock([...mediaFacts(info), ["Spoken language", transcript?.language]]),
    transcript?.text.trim() ? `${heading(2, "Transcript")}\n\n${escapeText(transcript.text.trim())}` : null,
  ]);
  return {
    markdown: tidyMarkdown(markdown),
    title,
    totalPages: 0,
    method: transcript ? "metadata+transcript" : "metadata",
    warnings,
    ...(transcript ? { transcribedSeconds: transcript.seconds } : {}),
  };
};

/** transcribe extracts speech-ready audio and sends it to the provider; failures propagate. */
async function transcribe(input: ConvertInput, info: MediaInfo, ctx: ConvertContext): Promise<TranscriptResult> {
  const audio = await ctx.tools.media.audioForTranscription(input.bytes, ctx.signal);
  ctx.signal.throwIfAborted();
  const result = await ctx.tools.transcriber!.transcribe(audio, ctx.signal);
  const seconds = result.durationSeconds ?? info.durationSeconds ?? 0;
  return { text: result.text ?? "", language: result.language, seconds: Math.round(seconds * 1000) / 1000 };
}

/** mediaFacts lists duration, container, each stream and the descriptive tags. */
export function mediaFacts(info: MediaInfo): Array<[string, unknown]> {
  const video = info.streams.filter((s) => s.type === "video").map(describeVideo);
  const audio = info.streams.filter((s) => s.type === "audio").map(describeAudio);
  const subtitles = info.streams.filter((s) => s.type === "subtitle").map((s) => s.codec);
  return [
    ["Duration", info.durationSeconds === null ? null : formatDuration(info.durationSeconds)],
    ["Container", info.formatName],
    [video.length > 1 ? "Video streams" : "Video", video.join("; ")],
    [audio.length > 1 ? "Audio streams" : "Audio", audio.join("; ")],
    ["Subtitles", subtitles.join(", ")],
    ...TAG_LABELS.map(([key, label]): [string, unknown] => [label, info.tags[key]]),
  ];
}

function describeVideo(s: MediaInfo["streams"][number]): string {
  const size = s.width && s.height ? `${s.width}x${s.height}` : null;
  const fps = s.fps ? `${s.fps} fps` : null;
  return [s.codec, size, fps].filter(Boolean).join(", ");
}

function describeAudio(s: MediaInfo["streams"][number]): string {
  const rate = s.sampleRate ? `${s.sampleRate} Hz` : null;
  const channels = s.channels ? (s.channels === 1 ? "mono" : s.channels === 2 ? "stereo" : `${s.channels} channels`) : null;
  return [s.codec, rate, channels].filter(Boolean).join(", ");
}

/** formatDuration renders seconds as h:mm:ss (rounded to the nearest second). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}
