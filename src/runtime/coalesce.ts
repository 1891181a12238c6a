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
