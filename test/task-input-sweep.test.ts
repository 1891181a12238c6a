/**
 * The input blobs of tasks that have ended, swept when the runner starts (src/tasks/files.ts): a crash
 * between a task's end and the removal of its input left the blob for an hour (the sweep kept every
 * blob younger than that, for a task whose blobs are written before its row is).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileBlobs } from "../src/store/files";
import { sweepInputs } from "../src/tasks/files";

const dir = mkdtempSync(join(tmpdir(), "docintel-sweep-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the input sweep at start", () => {
  test("a young blob goes when its task's row says the task ended; one without an ended row, or of an unfinished task, stays", async () => {
    const blobs = fileBlobs(dir);
    for (const task of ["task_ended", "task_accepting", "task_running"]) await blobs.put(`inputs/${task}/0`, new Uint8Array([1, 2, 3]));
    const ended = async (id: string) => id === "task_ended";
    expect(await sweepInputs(blobs, new Set(["task_running"]), ended)).toBe(1);
    expect((await blobs.list("inputs")).map((b) => b.name.split("/")[1]).sort()).toEqual(["task_accepting", "task_running"]);
    // past the age limit, a blob without a row (its task forgotten) goes too; an unfinished task's never
    expect(await sweepInputs(blobs, new Set(["task_running"]), async () => false, 0)).toBe(1);
    expect((await blobs.list("inputs")).map((b) => b.name.split("/")[1])).toEqual(["task_running"]);
  });
});
