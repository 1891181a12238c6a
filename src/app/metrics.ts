/**
 * Metrics in the Prometheus text format: requests by route and status, a latency histogram, pool
 * queue depth and tasks by state. Counters are per process; run one scrape target per instance.
 */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

export interface GaugeSource {
  poolQueueDepth(): number;
  poolThreads(): number;
  tasksByState(): Record<string, number>;
}

export class Metrics {
  private readonly requests = new Map<string, number>();
  private readonly latency = new Map<string, { buckets: number[]; sum: number; count: number }>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method}\u0000${route}\u0000${status}`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    const lkey = `${method}\u0000${route}`;
    let h = this.latency.get(lkey);
    if (!h) this.latency.set(lkey, (h = { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) h.buckets[i]!++;
    h.sum += seconds;
    h.count++;
  }

  render(gauges: GaugeSource): string {
    const out: string[] = [];
    out.push("# HELP docintel_http_requests_total HTTP requests by method, route and status.");
    out.push("# TYPE docintel_http_requests_total counter");
    for (const [key, n] of this.requests) {
      const [method, route, status] = key.split("\u0000") as [string, string, string];
      out.push(`docintel_http_requests_total{method="${method}",route="${escapeLabel(route)}",status="${status}"} ${n}`);
    }
    out.push("# HELP docintel_http_request_duration_seconds HTTP request latency.");
    out.push("# TYPE docintel_http_request_duration_seconds histogram");
    for (const [key, h] of this.latency) {
      const [method, route] = key.split("\u0000") as [string, string];
      const labels = `method="${method}",route="${escapeLabel(route)}"`;
      BUCKETS.forEach((b, i) => out.push(`docintel_http_request_duration_seconds_bucket{${labels},le="${b}"} ${h.buckets[i]}`));
      out.push(`docintel_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${h.count}`);
      out.push(`docintel_http_request_duration_seconds_sum{${labels}} ${h.sum}`);
      out.push(`docintel_http_request_duration_seconds_count{${labels}} ${h.count}`);
    }
    out.push("# HELP docintel_pool_queue_depth Jobs waiting for a worker thread.");
    out.push("# TYPE docintel_pool_queue_depth gauge");
    out.push(`docintel_pool_queue_depth ${gauges.poolQueueDepth()}`);
    out.push("# HELP docintel_pool_threads Worker threads running.");
    out.push("# TYPE docintel_pool_threads gauge");
    out.push(`docintel_pool_threads ${gauges.poolThreads()}`);
    out.push("# HELP docintel_tasks Async tasks by state.");
    out.push("# TYPE docintel_tasks gauge");
    for (const [state, n] of Object.entries(gauges.tasksByState())) out.push(`docintel_tasks{state="${state}"} ${n}`);
    return out.join("\n") + "\n";
  }
}
