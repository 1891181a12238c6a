/** Worker entry: piscina calls the default export with {name, args} and the job runs here. */
import { JOBS, type JobName } from "./jobs";

export default async function runJob({ name, args }: { name: JobName; args: unknown }): Promise<unknown> {
  const job = JOBS[name] as ((a: unknown) => Promise<unknown>) | undefined;
  if (!job) throw new Error(`unknown worker job '${String(name)}'`);
  return job(args);
}
