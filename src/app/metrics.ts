/**
 * Metrics in the Prometheus text format: requests by route and status, a latency histogram, pool
 * queue depth and tasks by state. Counters are per process; run one scrape target per instance.
 */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

export interface GaugeSource {
  poolQueueDepth(): number;
  poolThreads(): number;
  /** poolJobsCompleted: jobs the worker threads have finished since start */
  poolJobsCompleted(): number;
  tasksByState(): Record<string, number>;
}

/** Series: the requests of one method and route: counts by status and a latency histogram. */
interface Series {
  method: string;
  route: string;
  byStatus: Map<number, number>;
  /** requests per bucket, not cumulative (the last one is +Inf); summed up when rendered */
  perBucket: number[];
  sum: number;
  count: number;
}

export class Metrics {
  private readonly series = new Map<string, Series>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route}`;
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { method, route, byStatus: new Map(), perBucket: new Array(BUCKETS.length + 1).fill(0), sum: 0, count: 0 }));
    s.byStatus.set(status, (s.byStatus.get(status) ?? 0) + 1);
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    s.perBucket[i]!++;
    s.sum += seconds;
    s.count++;
  }

  render(gauges: GaugeSource): string {
    const out: string[] = [];
    out.push("# HELP docintel_http_requests_total HTTP requests by method, route and status.");
    out.push("# TYPE docintel_http_requests_total counter");
    for (const s of this.series.values()) {
      for (const [status, n] of s.byStatus) out.push(`docintel_http_requests_total{method="${s.method}",route="${escapeLabel(s.route)}",status="${status}"} ${n}`);
    }
    out.push("# HELP docintel_http_request_duration_seconds HTTP request latency.");
    out.push("# TYPE docintel_http_request_duration_seconds histogram");
    for (const s of this.series.values()) {
      const labels = `method="${s.method}",route="${escapeLabel(s.route)}"`;
      let cumulative = 0;
      BUCKETS.forEach((b, i) => {
        cumulative += s.perBucket[i]!;
        out.push(`docintel_http_request_duration_seconds_bucket{${labels},le="${b}"} ${cumulative}`);
      });
      out.push(`docintel_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${s.count}`);
      out.push(`docintel_http_request_duration_seconds_sum{${labels}} ${s.sum}`);
      out.push(`docintel_http_request_duration_seconds_count{${labels}} ${s.count}`);
    }
    out.push("# HELP docintel_pool_queue_depth Jobs waiting for a worker thread.");
    out.push("# TYPE docintel_pool_queue_depth gauge");
    out.push(`docintel_pool_queue_depth ${gauges.poolQueueDepth()}`);
    out.push("# HELP docintel_pool_threads Worker threads running.");
    out.push("# TYPE docintel_pool_threads gauge");
    out.push(`docintel_pool_threads ${gauges.poolThreads()}`);
    out.push("# HELP docintel_pool_jobs_completed_total Jobs finished by the worker threads.");
    out.push("# TYPE docintel_pool_jobs_completed_total counter");
    out.push(`docintel_pool_jobs_completed_total ${gauges.poolJobsCompleted()}`);
    out.push("# HELP docintel_tasks Async tasks by state.");
    out.push("# TYPE docintel_tasks gauge");
    for (const [state, n] of Object.entries(gauges.tasksByState())) out.push(`docintel_tasks{state="${state}"} ${n}`);
    return out.join("\n") + "\n";
  }
}
