import { describe, expect, test } from "bun:test";
import { coalesced, singleFlight } from "../src/runtime/coalesce";

/** gate: a promise the test resolves by hand, to hold a pass open */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe("coalesced", () => {
  test("calls in one synchronous stretch run the function once, after the stretch", async () => {
    let runs = 0;
    const look = coalesced(() => runs++);
    look();
    look();
    look();
    expect(runs).toBe(0);
    await Promise.resolve();
    expect(runs).toBe(1);
    look();
    await Promise.resolve();
    expect(runs).toBe(2);
  });
});

describe("singleFlight", () => {
  test("a call with no pass under way starts one at once", async () => {
    let passes = 0;
    const flight = singleFlight(async () => {
      passes++;
    }, () => {});
    flight();
    expect(passes).toBe(1);
    await flight.idle();
    expect(passes).toBe(1);
  });

  test("calls during a pass ask for exactly one more pass, started after it ends", async () => {
    const gates = [gate(), gate()];
    let started = 0;
    let ended = 0;
    const flight = singleFlight(async () => {
      const mine = started++;
      await gates[mine]?.promise;
      ended++;
    }, () => {});
    flight();
    flight();
    flight();
    flight();
    expect(started).toBe(1);
    gates[0]!.open();
    await Bun.sleep(0);
    expect(ended).toBe(1);
    expect(started).toBe(2); // the second pass, and only one for the three calls
    gates[1]!.open();
    await flight.idle();
    expect(started).toBe(2);
    expect(ended).toBe(2);
  });

  test("idle waits for the pass under way and the one asked for after it", async () => {
    const order: string[] = [];
    const flight = singleFlight(async () => {
      await Bun.sleep(5);
      order.push("pass");
    }, () => {});
    flight();
    flight();
    await flight.idle();
    order.push("idle");
    expect(order).toEqual(["pass", "pass", "idle"]);
  });

  test("a pass that rejects goes to onError and the next call starts a new pass", async () => {
    const errors: unknown[] = [];
    let passes = 0;
    const flight = singleFlight(async () => {
      passes++;
      if (passes === 1) throw new Error("store busy");
    }, (error) => errors.push(error));
    flight();
    await flight.idle();
    expect(errors.map((e) => (e as Error).message)).toEqual(["store busy"]);
    flight();
    await flight.idle();
    expect(passes).toBe(2);
    expect(errors).toHaveLength(1);
  });
});
