/**
 * underDeadline runs `work` with a signal that aborts at `ms` milliseconds or when the caller's
 * `signal` does (client gone). When the deadline ended the work, whatever it threw becomes one clear
 * 504 AppError("timeout", detail()); an AppError the work raised for another reason stands, and the
 * caller's own abort is rethrown as is. Markdown conversion, screenshots, thumbnails and the agent
 * operations all end this way.
 */
import { AppError } from "../errors";

export async function underDeadline<T>(ms: number, signal: AbortSignal | undefined, detail: () => string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = AbortSignal.timeout(ms);
  const combined = signal ? AbortSignal.any([deadline, signal]) : deadline;
  try {
    return await work(combined);
  } catch (error) {
    if (deadline.aborted && !(error instanceof AppError && error.code !== "timeout")) {
      throw new AppError("timeout", detail(), { cause: error });
    }
    throw error;
  }
}
