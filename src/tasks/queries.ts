/** SQL of async tasks. */
import type { Store } from "../store";
import { TASK_STATES, type TaskState } from "../store/states";

export const taskQueries = (store: Store) => ({
  countByState: (): Record<TaskState, number> => {
    const counts = Object.fromEntries(TASK_STATES.map((s) => [s, 0])) as Record<TaskState, number>;
    for (const row of store.db.query<{ status: TaskState; n: number }, []>("SELECT status, count(*) AS n FROM tasks GROUP BY status").all()) counts[row.status] = row.n;
    return counts;
  },
});
