/**
 * Graceful shutdown of the API's requests (docs/reliability.md, "Stop sequence"). Once shutdown
 * begins, answers tell the client to close the connection (`leave`); after the delay given to the
 * balancer, a request not yet begun is refused with a 503 problem and `Retry-After`, and the
 * server waits for the requests in flight up to a grace period (`drain`). The sockets of the
 * server `listen()` opens are closed by http/connections.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { newRequestId, problemReply, requestLanguage } from './binder.js';
import type { ServerConnections } from './connections.js';
import { ApiError } from './errors.js';
import { refusalDetails } from '@siteaudit/schema/rules';

export class RequestDrain {
  private state: 'serving' | 'leaving' | 'refusing' = 'serving';
  private readonly open = new Set<ServerResponse>();
  private emptied: (() => void) | null = null;
  /** The connections of `listen()`'s server, which decide the `Connection` header of their answers. */
  connections: ServerConnections | null = null;

  /** `problemTypeBase`: where the 503 problem's `type` points. */
  constructor(private readonly problemTypeBase: string) {}

  /** In the app's first layer: false when the request was refused because shutdown began. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.state === 'refusing') {
      // Written after the requests that arrived with it are read: a pipelined request behind
      // this one makes it not the last of its connection (http/connections.ts).
      setImmediate(() => this.refuse(req, res));
      return false;
    }
    if (this.state === 'leaving') this.sayClose(res);
    this.open.add(res);
    res.once('close', () => {
      this.open.delete(res);
      if (this.open.size === 0) this.emptied?.();
    });
    return true;
  }

  /** Shutdown began: requests are still served, and their answers say `Connection: close`. */
  leave(): void {
    if (this.state !== 'serving') return;
    this.state = 'leaving';
    for (const res of this.open) this.sayClose(res);
  }

  /** Refuses new requests, and resolves once those in flight are answered or `graceMs` has passed. */
  async drain(graceMs: number): Promise<void> {
    this.leave();
    this.state = 'refusing';
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

  private sayClose(res: ServerResponse): void {
    if (!res.headersSent && !this.connections?.owns(res)) res.setHeader('Connection', 'close');
  }

  private refuse(req: IncomingMessage, res: ServerResponse): void {
    if (res.writableEnded || res.destroyed) return;
    this.sayClose(res);
    const error = new ApiError('service_unavailable', { detail: refusalDetails.shuttingDown() }, { 'Retry-After': '5' });
    const reply = problemReply(error, requestLanguage(req as Parameters<typeof requestLanguage>[0]), (res.getHeader('X-Request-Id') as string | undefined) ?? newRequestId(), this.problemTypeBase);
    res.writeHead(reply.status, reply.headers).end(reply.body);
  }
}
