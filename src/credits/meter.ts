/**
 * metered runs one operation under the ledger: hold its minimum cost (402 when the balance cannot
 * cover it), run the work, then charge what the work says it cost, or release the hold when the work
 * fails. Sync routes and the task runner both call it, so nothing is charged for failed work.
 */
import type { Ledger, Account } from "./ledger";

export interface MeteredWork<T> {
  result: T;
  /** credits the finished work costs, e.g. costs.extract({pages, website}) */
  credits: number;
}

export async function metered<T>(
  ledger: Ledger,
  account: Account,
  operation: string,
  minimumCost: number,
  requestId: string,
  work: () => Promise<MeteredWork<T>>,
): Promise<{ result: T; creditsUsed: number }> {
  const hold = await ledger.hold(account, minimumCost);
  let outcome: MeteredWork<T>;
  try {
    outcome = await work();
  } catch (error) {
    await ledger.release(hold);
    throw error;
  }
  await ledger.settle(hold, outcome.credits, { operation, requestId });
  return { result: outcome.result, creditsUsed: outcome.credits };
}
