/**
 * Graceful shutdown of the HTTP side (docs/reliability.md, "Crashes and shutdown"): once
 * shutdown begins, a new request is refused with a 503 problem, the requests in flight are
 * answered with `Connection: close`, and the server waits for them up to a grace period.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { newRequestId, problemReply, requestLanguage } from './binder.js';
import { ApiError } from './errors.js';

export class RequestDrain {
  private closing = false;
  private readonly open = new Set<ServerResponse>();
  private emptied: (() => void) | null = null;

  /** `problemTypeBase`: where the 503 problem's `type` points. */
  constructor(private readonly problemTypeBase: string) {}

  /** In the app's first layer: false when the request was refused because shutdown began. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.closing) {
      const error = new ApiError('service_unavailable', { detail: 'The server is shutting down: send the request again in a moment.' }, { 'Retry-After': '5' });
      const reply = problemReply(error, requestLanguage(req as Parameters<typeof requestLanguage>[0]), (res.getHeader('X-Request-Id') as string | undefined) ?? newRequestId(), this.problemTypeBase);
      res.writeHead(reply.status, { ...reply.headers, Connection: 'close' }).end(reply.body);
      return false;
    }
    this.open.add(res);
    res.once('close', () => {
      this.open.delete(res);
      if (this.open.size === 0) this.emptied?.();
    });
    return true;
  }

  /** Refuses new requests, and resolves once those in flight are answered or `graceMs` has passed. */
  async drain(graceMs: number): Promise<void> {
    this.closing = true;
    for (const res of this.open) if (!res.headersSent) res.setHeader('Connection', 'close');
    if (this.open.size === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, graceMs);
      timer.unref();
      this.emptied = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
