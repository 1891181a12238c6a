/**
 * The webhook retry schedule (spec Events, retry policy).
 *
 * The spec lists an inline phase of 3 attempts (immediately, after 2 s, after 4 s) and a background
 * phase of retries after 1 min, 5 min, 15 min, 30 min, 1 h, 2 h and 4 h, and calls this "8 attempts
 * over about 8 hours". Both hold when the inline phase counts as one attempt: 1 inline round + 7
 * background retries = 8, and the background delays add up to 7 h 51 min. We make every HTTP request
 * of both phases, so a delivery makes at most 10 requests, and the `attempts` field of a delivery
 * record counts HTTP requests (1 to 10), not rounds.
 *
 * Every delay is kept in SQLite as the delivery's next_attempt_at, the inline ones too, so a restart
 * in the middle of the schedule loses nothing: the next process continues where this one stopped.
 */

/** RETRY_DELAYS_MS[n] is the wait before request n+1 (n = requests already made). */
export const RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  0, // inline 1: immediately
  2_000, // inline 2
  4_000, // inline 3
  60_000, // background: 1 min
  5 * 60_000,
  15 * 60_000,
  30 * 60_000,
  60 * 60_000,
  2 * 60 * 60_000,
  4 * 60 * 60_000,
]);

/** MAX_DELIVERY_ATTEMPTS: HTTP requests made before a delivery is dead. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length;

/** WEBHOOK_TIMEOUT_MS: a receiver that has not answered within 10 s counts as failed (retried). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** delayBefore returns the wait before the next request after `attemptsMade`, scaled; null when none remain. */
export function delayBefore(attemptsMade: number, scale: number, delays: readonly number[] = RETRY_DELAYS_MS): number | null {
  if (attemptsMade >= delays.length) return null;
  return Math.round(delays[attemptsMade]! * scale);
}
