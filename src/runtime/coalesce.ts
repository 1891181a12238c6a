/**
 * coalesced wraps `fn` so that any number of calls in one synchronous stretch run it once, in a
 * microtask after that stretch: "look at the store again" requests (a task accepted, ended, a
 * delivery finished) that arrive together make one look.
 */
export function coalesced(fn: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      fn();
    });
  };
}

/** SingleFlight: a call starts a pass, or asks for one more pass after the one under way */
export interface SingleFlight {
  (): void;
  /** idle resolves once no pass is under way or asked for (at once when none is) */
  idle(): Promise<void>;
}

/**
 * singleFlight wraps `pass` so that one pass runs at a time: a call while a pass is under way asks for
 * exactly one more pass after it (however many calls came), so a change seen during a look that had
 * already read past it is looked at again. A pass that rejects is handed to `onError`; the next call
 * starts a new pass as usual.
 */
export function singleFlight(pass: () => Promise<void>, onError: (error: unknown) => void): SingleFlight {
  let current: Promise<void> | null = null;
  let again = false;
  const run = (): void => {
    if (current) {
      again = true;
      return;
    }
    current = pass()
      .catch(onError)
      .finally(() => {
        current = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const idle = async (): Promise<void> => {
    while (current) await current;
  };
  return Object.assign(run, { idle });
}
