/** Route pairs an Operation with its handler; capability modules export lists of them. */
import type { Handler, Operation } from "./operation";

/** Route: `D` is what its handler uses of the services (see HandlerInput). */
export interface Route<D = unknown> {
  op: Operation;
  handler: Handler<D>;
}
