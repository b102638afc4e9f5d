/** The Express application: request ids and language headers, the contract's routes, 404 and 405. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { VARY, allowedMethods } from '@siteaudit/schema';
import { contractRouter, newRequestId, problemReply, requestLanguage, type BinderDeps, type Handlers } from './binder.js';
import { docsRouter, type DocsOptions } from './docs.js';
import type { RequestDrain } from './drain.js';
import { answerHealth, type HealthProbe } from './health.js';
import { ApiError } from './errors.js';
import { facts } from './request-log.js';

export interface AppExtras {
  /** Refuses requests once shutdown began and tracks those in flight (http/drain.ts). */
  drain?: RequestDrain;
  /** Called first for every request: the request line and metrics (http/request-log.ts). */
  observe?: ((req: Request, res: Response) => void) | null;
  /** Prometheus text at GET /metrics (outside /v1, no token, no rate limit). */
  metrics?: { contentType: string; metrics(): Promise<string> } | null;
  /** GET /healthz and /readyz (http/health.ts): before the log and the drain, so probes are answered while draining. */
  health?: HealthProbe | null;
  /** GET /openapi.json, /docs, /docs/errors and the /v1 index (http/docs.ts). */
  docs?: DocsOptions | null;
}

export function createApp(handlers: Handlers, deps: BinderDeps, { drain, observe, metrics, health, docs }: AppExtras = {}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // our ETags are computed by the binder, after authorisation
  app.set('query parser', 'simple');

  // One layer for every answer's headers and the contract's routes: each express layer a
  // request walks through costs it (docs/benchmarks.md, "API reads").
  const routeContract = contractRouter(handlers, deps);
  app.use((req: Request, res: Response, next: NextFunction) => {
    // In this layer rather than a route of its own, which every API request would walk past.
    if (health && answerHealth(health, req, res)) return;
    if (metrics && req.method === 'GET' && req.url.split('?')[0] === '/metrics') return serveMetrics(metrics, res, next);
    observe?.(req, res);
    res.setHeader('X-Request-Id', newRequestId());
    res.setHeader('Content-Language', requestLanguage(req));
    res.setHeader('Vary', VARY);
    if (drain && !drain.admit(req, res)) return;
    routeContract(req, res, next);
  });

  if (docs) app.use(docsRouter(docs));

  // Anything under /v1 the contract does not route: 405 with Allow when the path exists, else
  // 404. Other paths fall through, so an app embedding this one keeps its own routes.
  app.use('/v1', (req: Request, res: Response) => {
    // The path within this app: an application may mount it under a prefix of its own.
    const allowed = allowedMethods(`/v1${req.path}`);
    facts(res).operation = 'unrouted';
    const error = allowed.length > 0 ? new ApiError('method_not_allowed', {}, { Allow: allowed.join(', ') }) : new ApiError('not_found');
    const reply = problemReply(error, requestLanguage(req), res.getHeader('X-Request-Id') as string, deps.problemTypeBase);
    res.status(reply.status).set(reply.headers).end(reply.body);
  });

  // Errors raised before a route handler runs: the body parser's limits, mostly.
  app.use((err: Error & { type?: string; status?: number }, req: Request, res: Response, _next: NextFunction) => {
    const error =
      err.type === 'entity.too.large'
        ? new ApiError('request.too_large')
        : err.status && err.status < 500
          ? new ApiError('request.malformed_json')
          : null;
    if (!error) deps.onError(err, req);
    const reply = problemReply(error ?? new ApiError('internal_error'), requestLanguage(req), res.getHeader('X-Request-Id') as string, deps.problemTypeBase);
    res.status(reply.status).set(reply.headers).end(reply.body);
  });
  return app;
}

/** Prometheus text: outside /v1, without a token or the rate limit, not in the contract. */
export function serveMetrics(metrics: NonNullable<AppExtras['metrics']>, res: ServerResponse, next: (error: unknown) => void): void {
  metrics.metrics().then((text) => {
    res.writeHead(200, { 'Content-Type': metrics.contentType }).end(text);
  }, next);
}

/**
 * The app as `listen()` serves it on its own: every path the API does not know answers a 404
 * problem. `server.app` itself leaves paths outside /v1 to the application embedding it. The
 * fallback is express's final handler rather than a wrapping app, which would add a router hop
 * to every request.
 */
export function standaloneApp(app: express.Express, problemTypeBase: string): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) =>
    app(req as Request, res as Response, () => {
      const request = req as Request;
      facts(res as Response).operation ??= 'unrouted';
      const reply = problemReply(new ApiError('not_found'), requestLanguage(request), (res.getHeader('X-Request-Id') as string | undefined) ?? newRequestId(), problemTypeBase);
      res.writeHead(reply.status, reply.headers).end(reply.body);
    });
}
