/**
 * untilAborted settles like `promise`, or rejects with the signal's reason as soon as it aborts:
 * for work that cannot be cancelled itself (a DNS lookup, a browser call), so the caller stops
 * waiting at its deadline while the work finishes or is torn down elsewhere.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
