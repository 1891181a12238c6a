/** screenshotTask: a screenshot of a web page as an operation of the table (src/operations.ts); sync only. */
import { costs, MINIMUM_COST } from "../credits/costs";
import type { TaskKind } from "../tasks/kinds";
import { screenshotOf, type Screenshot, type ScreenshotDeps, type ScreenshotOptions } from "./service";

export interface ScreenshotInput {
  url: string;
  options: ScreenshotOptions;
}

export const screenshotTask: TaskKind<ScreenshotInput, Screenshot, { screenshots: ScreenshotDeps }> = {
  minimumCost: MINIMUM_COST.screenshot,
  run: async (input, deps, signal) => ({ result: await screenshotOf(input.url, input.options, deps.screenshots, signal), credits: costs.screenshot() }),
};
