import { Type } from "@sinclair/typebox";
import { StringEnum, Fields } from "../app/fields";

export const SCREENSHOT_FORMATS = ["jpeg", "gif", "mp4"] as const;

export const ScreenshotQuery = Fields({
  viewport_width: Type.Integer({ minimum: 320, maximum: 3840, default: 1280, description: "viewport width in CSS pixels" }),
  viewport_height: Type.Integer({ minimum: 200, maximum: 2160, default: 800, description: "viewport height in CSS pixels" }),
  full_page: Type.Boolean({ default: false, description: "capture the whole scrollable page" }),
  dark_mode: Type.Boolean({ default: false, description: "emulate prefers-color-scheme: dark" }),
  selector: Type.String({ minLength: 1, maxLength: 500, description: "CSS selector of one element to capture; 4xx when nothing matches" }),
  format: StringEnum(SCREENSHOT_FORMATS, { default: "jpeg", description: "jpeg, or gif / mp4 (H.264) for a short capture that scrolls the page" }),
  quality: Type.Integer({ minimum: 1, maximum: 100, default: 80, description: "JPEG quality" }),
  wait_ms: Type.Integer({ minimum: 0, maximum: 30000, default: 0, description: "extra wait after the network settles, in ms" }),
  device_scale_factor: Type.Number({ minimum: 1, maximum: 3, default: 1, description: "device pixel ratio" }),
});
