/**
 * Request deadlines for a crawl's HTTP client without a timer or a combined signal per request.
 * `AbortSignal.timeout` keeps a timer and a signal alive for the whole timeout after every
 * request, and `AbortSignal.any` ties each one to the crawl's signal (Node keeps them as weak
 * references until collected): at hundreds of requests a second that is tens of thousands of live
 * timers and signals, and garbage collection work that grows with the crawl.
 *
 * Here each request gets a plain AbortController; one sweep aborts those past their deadline
 * (so a deadline holds to within a sweep, at most a second), and the crawl's stop aborts every
 * request in flight. All requests of a client share one timeout, so the order they started in is
 * the order their deadlines fall: a sweep stops at the first request still in time.
 */

/** What an expired request is aborted with: classified as a timeout, like AbortSignal.timeout's. */
function timeoutReason(): DOMException {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

interface InFlight {
  controller: AbortController;
  deadline: number;
}

export interface RequestDeadline {
  signal: AbortSignal;
  /** The request is over (answered and its body read, discarded or failed). */
  done(): void;
}

export class RequestDeadlines {
  private readonly inFlight = new Set<InFlight>();
  private sweeper: NodeJS.Timeout | null = null;
  private readonly sweepMs: number;

  constructor(
    private readonly timeoutMs: number,
    private readonly stop?: AbortSignal,
  ) {
    this.sweepMs = Math.max(10, Math.min(1000, Math.floor(timeoutMs / 4)));
    stop?.addEventListener('abort', () => this.abortAll(stop.reason), { once: true });
  }

  start(): RequestDeadline {
    const controller = new AbortController();
    if (this.stop?.aborted) {
      controller.abort(this.stop.reason);
      return { signal: controller.signal, done: () => undefined };
    }
    const entry: InFlight = { controller, deadline: performance.now() + this.timeoutMs };
    this.inFlight.add(entry);
    this.sweeper ??= setInterval(() => this.sweep(), this.sweepMs).unref();
    return { signal: controller.signal, done: () => this.inFlight.delete(entry) };
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  private sweep(): void {
    const now = performance.now();
    for (const entry of this.inFlight) {
      if (entry.deadline > now) break;
      this.inFlight.delete(entry);
      entry.controller.abort(timeoutReason());
    }
    if (this.inFlight.size === 0) this.close();
  }

  private abortAll(reason: unknown): void {
    const entries = [...this.inFlight];
    this.inFlight.clear();
    this.close();
    for (const entry of entries) entry.controller.abort(reason);
  }
}
