import { Type } from "@sinclair/typebox";
import { StringEnum, Fields } from "../http/fields";

export const SCREENSHOT_FORMATS = ["jpeg", "png", "webp", "gif", "mp4"] as const;
export type ScreenshotFormat = (typeof SCREENSHOT_FORMATS)[number];
/** STILL_FORMATS: one captured image; the others are animations of the page scrolled top to bottom */
export const STILL_FORMATS = ["jpeg", "png", "webp"] as const;
export type StillFormat = (typeof STILL_FORMATS)[number];
export const isStill = (format: ScreenshotFormat): format is StillFormat => (STILL_FORMATS as readonly string[]).includes(format);

export const ScreenshotQuery = Fields({
  viewport_width: Type.Integer({ minimum: 320, maximum: 3840, default: 1280, description: "viewport width in CSS pixels" }),
  viewport_height: Type.Integer({ minimum: 200, maximum: 2160, default: 800, description: "viewport height in CSS pixels" }),
  full_page: Type.Boolean({
    default: false,
    description: "jpeg, png, webp: capture the whole scrollable page instead of the viewport; a page taller than the pixel limit (--max-megapixels, or 16384 device pixels) is cut there and the response says X-Truncated: true",
  }),
  dark_mode: Type.Boolean({ default: false, description: "emulate prefers-color-scheme: dark (the page's own dark theme; nothing is inverted)" }),
  selector: Type.String({
    minLength: 1,
    maxLength: 500,
    description: "CSS selector: capture only the first matching element (still formats only: jpeg, png, webp); 400 bad_request when nothing matches or the element is not displayed",
  }),
  format: StringEnum(SCREENSHOT_FORMATS, {
    default: "jpeg",
    description: "jpeg (image/jpeg), png (image/png, lossless) or webp (image/webp); gif (image/gif) or mp4 (video/mp4, H.264): a 3-second capture at 8 frames per second that scrolls from the top of the page to the bottom",
  }),
  quality: Type.Integer({ minimum: 1, maximum: 100, default: 80, description: "quality of jpeg and webp (png is lossless and ignores it; for gif and mp4: of the captured frames)" }),
  wait_ms: Type.Integer({ minimum: 0, maximum: 30000, default: 0, description: "extra wait after the page settled (no document, script, fetch or XHR in flight and the DOM quiet), in ms; counts against the screenshot deadline" }),
  device_scale_factor: Type.Number({ minimum: 1, maximum: 3, default: 1, description: "device pixel ratio: 2 gives an image twice the viewport's width and height (retina)" }),
});
