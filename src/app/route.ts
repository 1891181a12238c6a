/** Route pairs an Operation with its handler; capability modules export lists of them. */
import { AppError } from "../errors";
import type { Handler, Operation } from "./operation";

export interface Route {
  op: Operation;
  handler: Handler;
}

/**
 * notBuiltYet answers 501 for an operation whose contract is in place but whose work is not in
 * this version: the request has been fully validated first, so clients can already code against it.
 */
export function notBuiltYet(what: string): never {
  throw new AppError("not_implemented", `${what} is part of the interface but not available in this version of docintel yet; the request was valid.`);
}
