/**
 * retryTransient runs a transaction again when PostgreSQL aborted it for a reason that a new attempt
 * usually does not meet: a deadlock (SQLSTATE 40P01: the server chose this transaction as the victim
 * of a lock cycle) or a serialization failure (40001). Both roll the whole transaction back, so a
 * body that writes only through its transaction can run again as if the first attempt never was.
 * Every caller's body must be such (StoreBackend.transaction's contract: no effect outside `tx`
 * that a rollback would leave behind).
 *
 * Attempts are bounded (TRANSIENT_ATTEMPTS) and spaced by a short jittered wait, so two transactions
 * that deadlocked do not meet again at the same instant. One line is logged per transaction that
 * needed another attempt; the last attempt's error is thrown as it is.
 */

/** TRANSIENT_ATTEMPTS: how many times a transaction runs at most (the first attempt included) */
export const TRANSIENT_ATTEMPTS = 4;
/** TRANSIENT_WAIT_MS: the wait before attempt n is n * this, plus up to as much again at random */
const TRANSIENT_WAIT_MS = 5;

/** TRANSIENT_STATES: the SQLSTATEs whose transaction is run again */
const TRANSIENT_STATES: Record<string, string> = { "40P01": "deadlock", "40001": "serialization failure" };

/** transientState: the name of a deadlock or serialization failure, else null */
export function transientState(error: unknown): string | null {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === "string" && Object.hasOwn(TRANSIENT_STATES, errno) ? `${TRANSIENT_STATES[errno]} (${errno})` : null;
}

/** RetryLog: told once per transaction that is run again (what, e.g. "deadlock (40P01)", and the error) */
export type RetryLog = (what: string, error: unknown) => void;

export async function retryTransient<T>(run: () => Promise<T>, log: RetryLog, attempts = TRANSIENT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const what = transientState(error);
      if (!what || attempt >= attempts) throw error;
      if (attempt === 1) log(what, error);
      await Bun.sleep(TRANSIENT_WAIT_MS * attempt * (1 + Math.random()));
    }
  }
}
