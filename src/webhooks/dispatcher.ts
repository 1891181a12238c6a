/**
 * WebhookDispatcher sends signed webhook deliveries and retries them on the schedule of schedule.ts.
 *
 *   task ends -> enqueue (same transaction: the delivery row is the outbox, claimed by this process
 *                from birth when it has room) -> wake -> the first request, from this process
 *   tick: due rows -> claim (next_attempt_at pushed past the timeout) -> SSRF check
 *        -> signed POST (the key's secret as it is now, secret.ts; cached until the keys change)
 *        -> 2xx delivered | 4xx (or any other non-5xx) dead | 5xx, timeout, network error: failed,
 *           next_attempt_at = now + delay (scaled), or dead when the schedule is used up
 *
 * Everything that decides the next request is in the store (backend.deliveries: SQLite, or
 * PostgreSQL shared by several machines, where claimDue takes rows with FOR UPDATE SKIP LOCKED), so
 * a process that stops or dies loses no delivery: the next one (or another process or machine on
 * the same store) picks the due rows up. A delivery
 * may then be sent twice (the process died after the receiver answered but before the row was
 * updated); the X-SVC-Delivery-ID is the same every time, so receivers de-duplicate by it.
 */
import { randomBytes } from "node:crypto";
import type { Logger } from "../runtime/log";
import { AppError } from "../errors";
import { coalesced, singleFlight } from "../runtime/coalesce";
import { assertFetchableUrl, pinToAddress } from "../security/ssrf";
import type { DeliveryRow, NewDelivery, StoreBackend, StoreTx } from "../store/backend";
import type { DeliveryState } from "../store/states";
import { MAX_DELIVERY_ATTEMPTS, RETRY_DELAYS_MS, WEBHOOK_TIMEOUT_MS, delayBefore } from "./schedule";
import { SigningSecrets } from "./secret";
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER, signBody } from "./signature";

export interface WebhookDispatcherOptions {
  backend: StoreBackend;
  /** sharedSecret: signs deliveries of keys made before per-key secrets (see secret.ts) */
  sharedSecret: string;
  /** allowPrivate: deliver to loopback and private addresses (the server's --allow-private-urls) */
  allowPrivate: boolean;
  logger: Logger;
  /** retryScale multiplies every delay of the schedule (DOCINTEL_WEBHOOK_RETRY_SCALE; tests use 0.001); default 1 */
  retryScale?: number;
  /** delays: the schedule, RETRY_DELAYS_MS unless a test replaces it */
  delays?: readonly number[];
  /** timeoutMs: wait for a receiver's answer; default 10 s */
  timeoutMs?: number;
  /** pollMs: how often the store is looked at without a wake-up (deliveries of other processes); default 5 s */
  pollMs?: number;
  /** parallel: requests in flight at once; default 16 */
  parallel?: number;
}

type Outcome = { kind: "delivered" | "retry" | "permanent"; statusCode: number | null; error: string | null };

const USER_AGENT = "docintel-webhook/1";
/** CLAIM_MARGIN_MS: a claim lasts the request's timeout plus this much */
const CLAIM_MARGIN_MS = 5_000;

export function newDeliveryId(): string {
  return "whd_" + randomBytes(10).toString("hex");
}

export class WebhookDispatcher {
  /** secrets: the keys' signing secrets, cached until the keys' change stamp moves (secret.ts) */
  readonly secrets: SigningSecrets;
  private readonly delays: readonly number[];
  private readonly scale: number;
  private readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly parallel: number;
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  /** born: deliveries enqueued (claimed) by this process whose first request is made at the next wake */
  private born: string[] = [];
  /**
   * dueMaybe: rows may be due that no tick has claimed: a delivery enqueued without room to be born
   * claimed, a claim that filled every free slot, a retry scheduled here. A wake ticks only then;
   * otherwise it sends the born deliveries alone (a tick is two round trips on PostgreSQL, and every
   * task's ending and every finished request wakes the dispatcher). Rows made due by other processes
   * are found by the timer (the next due time, at most pollMs), as before.
   */
  private dueMaybe = true;
  /**
   * unborn: deliveries enqueued due now (no room to be born claimed), id -> when (unix ms). Their commit
   * may come after a tick that looked, so a wake ticks while one is unclaimed; one a tick has not
   * claimed within pollMs is left to the timer (a rolled-back enqueue leaves no row).
   */
  private readonly unborn = new Map<string, number>();
  /** awaiting: born deliveries whose caller reports their commit (written), so none is read back from the store */
  private readonly awaiting = new Set<string>();

  constructor(private readonly o: WebhookDispatcherOptions) {
    this.delays = o.delays ?? RETRY_DELAYS_MS;
    this.scale = o.retryScale ?? 1;
    this.timeoutMs = o.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    this.pollMs = o.pollMs ?? 5_000;
    this.parallel = o.parallel ?? 16;
    this.secrets = new SigningSecrets(o.backend, o.sharedSecret);
  }

  private get deliveries() {
    return this.o.backend.deliveries;
  }

  /**
   * enqueue records a delivery of `payload` to `url` for the key `keyId` (whose secret signs it), due
   * now, through `tx`: the transaction that ends the task; call `wake()` after the commit. Returns
   * the delivery id (whd_...).
   */
  async enqueue(tx: StoreTx, taskId: string, keyId: string, url: string, payload: unknown): Promise<string> {
    const delivery = this.delivery(taskId, keyId, url, payload);
    await tx.deliveries.insert(delivery);
    return delivery.id;
  }

  /**
   * delivery: the row enqueue inserts, for a caller that writes it itself in the commit that ends the
   * task (TaskStore.finish); call `wake()` after the commit.
   */
  delivery(taskId: string, keyId: string, url: string, payload: unknown, reported = false): NewDelivery {
    const id = newDeliveryId();
    const now = new Date();
    // With room for another request, this process makes the first one right after the commit (wake),
    // so the row is born claimed, as a tick would claim it: no other process sends it unless this
    // one dies first, and no second commit is needed to claim it.
    const sendHere = this.running && this.inFlight.size + this.born.length + this.awaiting.size < this.parallel;
    const nextAttemptAt = sendHere ? now.getTime() + this.timeoutMs + CLAIM_MARGIN_MS : now.getTime();
    if (!sendHere) {
      this.dueMaybe = true;
      if (this.running) this.unborn.set(id, now.getTime());
    } else if (reported) this.awaiting.add(id);
    else this.born.push(id);
    return { id, task_id: taskId, key_id: keyId, url, payload: JSON.stringify(payload), next_attempt_at: nextAttemptAt, created_at: now.toISOString() };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.tick();
  }

  /** wake looks for due deliveries now (after an enqueue commits). */
  wake(): void {
    if (this.running) this.tickSoon();
  }

  /**
   * written: the caller of `delivery(..., true)` reports whether its commit wrote the row (TaskStore.finish
   * answered "ended"). A row born claimed here is then sent from what the caller wrote, without reading
   * it back from the store; a row not written frees its room. Wakes the dispatcher.
   */
  written(delivery: NewDelivery, committed: boolean): void {
    if (this.awaiting.delete(delivery.id) && committed && !this.inFlight.has(delivery.id)) {
      const row: DeliveryRow = { ...delivery, status: "pending", status_code: null, attempts: 0, last_error: null, delivered_at: null };
      void this.track(delivery.id, this.attempt(row, true));
    }
    this.wake();
  }

  /** tickSoon: many wakes in one turn (tasks ending together) make one tick, when rows may be due (dueMaybe) */
  private readonly tickSoon = coalesced(() => {
    this.sendBorn();
    if (this.dueMaybe || this.unborn.size > 0) this.tick();
  });

  /** sendBorn makes the first request of the deliveries enqueued here (a rolled-back enqueue left no row). */
  private sendBorn(): void {
    const born = this.born;
    this.born = [];
    for (const id of born) {
      if (this.inFlight.has(id)) continue;
      const start = async () => {
        const row = await this.deliveries.get(id);
        if (row && row.status === "pending" && row.attempts === 0) await this.attempt(row, true);
      };
      // a busy store: the row is due once its claim runs out, and a tick sends it then
      void this.track(id, start());
    }
  }

  /** stop sends nothing new and waits for the requests in flight (each bounded by the timeout). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.tick.idle();
    await Promise.allSettled([...this.inFlight.values()]);
  }

  deliveriesOf(taskId: string): Promise<DeliveryRow[]> {
    return this.deliveries.ofTask(taskId);
  }

  /**
   * retryNow makes one request for a delivery at once, whatever its state (re-delivery on demand),
   * with the same delivery id. On failure a delivery that still had scheduled requests keeps them;
   * one that had none (dead or delivered) is dead.
   */
  async retryNow(id: string): Promise<DeliveryRow> {
    await this.inFlight.get(id);
    const row = await this.deliveries.get(id);
    if (!row) throw new AppError("not_found", `No webhook delivery ${id}.`);
    const scheduled = row.status === "pending" || row.status === "failed";
    await this.track(id, this.attempt(row, scheduled));
    return (await this.deliveries.get(id))!;
  }

  private track(id: string, work: Promise<void>): Promise<void> {
    const done = work
      .catch((error) => this.o.logger.error("-", `webhook delivery ${id} failed unexpectedly`, error))
      .finally(() => {
        this.inFlight.delete(id);
        this.wake();
      });
    this.inFlight.set(id, done);
    return done;
  }

  /** tick: one tick at a time (its claims are awaited); a wake during one makes it tick once more */
  private readonly tick = singleFlight(
    () => this.tickOnce(),
    (error) => {
      // a busy or closing store: look again at the next poll
      this.o.logger.error("-", "webhook scheduler tick failed", error);
      this.schedule(this.pollMs);
    },
  );

  /** tickOnce claims the due deliveries there is room for (no other dispatcher gets them) and sends them; then waits for the next due one. */
  private async tickOnce(): Promise<void> {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const now = Date.now();
    const free = this.parallel - this.inFlight.size;
    this.dueMaybe = free <= 0; // no room: the rows left due are claimed at a wake once a request ends
    if (free > 0) {
      const claimed = await this.deliveries.claimDue(now, free, now + this.timeoutMs + CLAIM_MARGIN_MS);
      if (claimed.length >= free) this.dueMaybe = true; // every free slot taken: more may be due
      for (const [id, at] of this.unborn) if (at < now - this.pollMs) this.unborn.delete(id);
      for (const row of claimed) {
        this.unborn.delete(row.id);
        if (this.inFlight.has(row.id)) continue; // a manual retry of it is under way; the claim runs out
        void this.track(row.id, this.attempt(row, true));
      }
    }
    const next = await this.deliveries.nextDueAt();
    this.schedule(next === null ? this.pollMs : Math.min(this.pollMs, Math.max(0, next - Date.now())));
  }

  private schedule(waitMs: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), waitMs);
    this.timer.unref?.();
  }

  /** attempt makes one request and records it; `scheduled` false = a manual retry outside the schedule. */
  private async attempt(row: DeliveryRow, scheduled: boolean): Promise<void> {
    const outcome = await this.send(row);
    const attemptsMade = row.attempts + 1;
    let status: DeliveryState;
    let next: number | null = null;
    if (outcome.kind === "delivered") status = "delivered";
    else if (outcome.kind === "permanent" || !scheduled) status = "dead";
    else {
      const delay = delayBefore(attemptsMade, this.scale, this.delays);
      if (delay === null) status = "dead";
      else {
        status = "failed";
        next = Date.now() + delay;
      }
    }
    await this.deliveries.record({
      id: row.id,
      status,
      status_code: outcome.statusCode,
      next_attempt_at: next,
      last_error: outcome.error,
      delivered_at: status === "delivered" ? new Date().toISOString() : null,
    });
    if (status === "failed") this.dueMaybe = true; // after the commit: the wake after this request ticks and times the retry
    if (status === "dead") this.o.logger.info("webhook delivery dead", { delivery_id: row.id, task_id: row.task_id, attempts: attemptsMade, status_code: outcome.statusCode, error: outcome.error });
  }

  /** send POSTs the stored payload, signed, to a URL that passes the SSRF guard now (DNS may have changed). */
  private async send(row: DeliveryRow): Promise<Outcome> {
    let target: string;
    let pinnedHost: string | null;
    try {
      const { url, addresses } = await assertFetchableUrl(row.url, { allowPrivate: this.o.allowPrivate, field: "webhook_url" });
      ({ target, pinnedHost } = pinToAddress(url, addresses));
    } catch (error) {
      const refused = error instanceof AppError && (error.code === "url_refused" || error.code === "bad_request");
      return { kind: refused ? "permanent" : "retry", statusCode: null, error: error instanceof AppError ? error.detail : String(error) };
    }
    // the key's own secret, else the shared one (keys made before per-key secrets, and deliveries
    // enqueued before migration 5, which have no key); cached, so every machine signs alike within a second of a rotation
    const secret = await this.secrets.of(row.key_id);
    const headers = new Headers({
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      // signed now, with the key's secret of this moment: a rotation counts from the next request on
      [SIGNATURE_HEADER]: signBody(secret, row.payload),
      [DELIVERY_ID_HEADER]: row.id,
    });
    if (pinnedHost) headers.set("host", pinnedHost);
    try {
      const response = await fetch(target, { method: "POST", body: row.payload, headers, redirect: "manual", signal: AbortSignal.timeout(this.timeoutMs) });
      await response.body?.cancel().catch(() => {});
      const code = response.status;
      if (code >= 200 && code <= 299) return { kind: "delivered", statusCode: code, error: null };
      if (code >= 500) return { kind: "retry", statusCode: code, error: `the receiver answered HTTP ${code}` };
      // 4xx is permanent per the spec; a redirect is not followed (it would move a signed body elsewhere)
      return { kind: "permanent", statusCode: code, error: `the receiver answered HTTP ${code}; not retried` };
    } catch (error) {
      const timedOut = (error as Error)?.name === "TimeoutError";
      const message = timedOut ? `no answer within ${this.timeoutMs / 1000} s` : `could not connect: ${(error as { code?: string }).code ?? (error as Error)?.message ?? String(error)}`;
      return { kind: "retry", statusCode: null, error: message };
    }
  }
}

export { MAX_DELIVERY_ATTEMPTS };
