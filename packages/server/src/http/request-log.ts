/**
 * The request line and the request metrics, written when an answer is done (docs/operations.md):
 * request id, operation, team, status, duration and cost. The binder leaves the operation and
 * the team in `res.locals` (express's, or made here when express is not entered); the cost is the
 * `X-Request-Cost` the caller was told.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';

/** What the binder (and the 404/405 answer) leave for the request line. */
export interface RequestFacts {
  /** The contract's operation id, `unrouted` for a 404/405 this app answered, `preflight` for a CORS preflight. */
  operation?: string;
  team?: string;
}

/** express keeps a `res.locals` it finds, so facts noted before it runs stay there. */
export const facts = (res: ServerResponse): RequestFacts => ((res as ServerResponse & { locals?: RequestFacts }).locals ??= {});

/** The path as the client sent it, without the query: also when an embedding app mounted this one under a prefix. */
export function requestPath(req: IncomingMessage): string {
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Returns the function the app's first layer calls for every request, or null when neither a
 * request line nor metrics would be written (a silent logger without metrics costs nothing).
 * One plain `info` call per request on the server's logger, no child logger: pino's fast path.
 */
export function requestObserver(logger: Logger, metrics: Metrics | null): ((req: IncomingMessage, res: ServerResponse) => void) | null {
  if (!metrics && logger.level === 'silent') return null;
  return (req, res) => {
    const started = performance.now();
    metrics?.inFlight(1);
    res.once('close', () => {
      metrics?.inFlight(-1);
      const { operation, team } = facts(res);
      // Requests this app left to the application embedding it are that application's to log.
      if (operation === undefined) return;
      const ms = performance.now() - started;
      metrics?.request(operation, res.statusCode, ms / 1000);
      if (!logger.isLevelEnabled('info')) return;
      const cost = res.getHeader('X-Request-Cost');
      logger.info(
        {
          req_id: res.getHeader('X-Request-Id'),
          op: operation,
          team,
          method: req.method,
          path: requestPath(req),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          cost: cost === undefined ? 0 : Number(cost),
          // The client went away before the answer was written out.
          aborted: res.writableFinished ? undefined : true,
        },
        'request',
      );
    });
  };
}
