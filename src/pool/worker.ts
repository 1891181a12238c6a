/** Worker entry: piscina calls the default export with {name, args} and the named function runs here. */
import { WORKER_FUNCTIONS, type WorkerFunctionName } from "./functions";

export default async function runWorkerFunction({ name, args }: { name: WorkerFunctionName; args: unknown }): Promise<unknown> {
  const fn = WORKER_FUNCTIONS[name] as ((a: unknown) => Promise<unknown>) | undefined;
  if (!fn) throw new Error(`unknown worker function '${String(name)}'`);
  return fn(args);
}
