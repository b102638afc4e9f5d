/**
 * The API application: request ids, language and CORS headers, the contract's routes, 404 and 405; as
 * node's listener for `listen()` and as the express app an application embeds.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { CORS_HEADERS, isCrossOriginPath, isPreflight, PREFLIGHT_HEADERS, VARY } from '@siteaudit/schema/rules';
import { unroutedError } from '@siteaudit/schema/pipeline';
import { answerBodyError, answerFailure, contractRouter, newRequestId, problemReply, requestLanguage, splitTarget, type BinderDeps, type Handlers, type NodeLayer } from './binder.js';
import { docsRouter, type DocsOptions } from './docs.js';
import type { RequestDrain } from './drain.js';
import { answerHealth, type HealthProbe } from './health.js';
import { facts } from './request-log.js';

export interface AppExtras {
  /** Refuses requests once shutdown began and tracks those in flight (http/drain.ts). */
  drain?: RequestDrain;
  /** Called first for every request: the request line and metrics (http/request-log.ts). */
  observe?: ((req: IncomingMessage, res: ServerResponse) => void) | null;
  /** Prometheus text at GET /metrics (outside /v1, no token, no rate limit). */
  metrics?: { contentType: string; metrics(): Promise<string> } | null;
  /** GET /healthz and /readyz (http/health.ts): before the log and the drain, so probes are answered while draining. */
  health?: HealthProbe | null;
  /** GET /openapi.json, /docs, /docs/errors and the /v1 index (http/docs.ts). */
  docs?: DocsOptions | null;
  /** Answers pages of other origins (docs/decisions/cors.md); false leaves CORS to an embedding application. Default true. */
  cors?: boolean;
}

/** The app an application embeds (`server.app`), and the listener `listen()` serves it with. */
export interface ServedApp {
  app: express.Express;
  listener: RequestListener;
}

export function createApp(handlers: Handlers, deps: BinderDeps, { drain, observe, metrics, health, docs, cors = true }: AppExtras = {}): ServedApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // our ETags are computed by the binder, after authorisation
  app.set('query parser', 'simple');

  // One layer for every answer's headers and the contract's routes, on node's own request and
  // response: `listen()` runs it before express, which it enters only for what the contract does
  // not route (docs/benchmarks.md, "API reads").
  const routeContract = contractRouter(handlers, deps);
  const first: NodeLayer = (req, res, next) => {
    // In this layer rather than a route of its own, which every API request would walk past.
    if (health && answerHealth(health, req, res)) return;
    if (answerMetrics(metrics, req, res, (error) => answerFailure(deps, req, res, error))) return;
    observe?.(req, res);
    res.setHeader('X-Request-Id', newRequestId());
    res.setHeader('Content-Language', requestLanguage(req));
    res.setHeader('Vary', VARY);
    const crossOrigin = cors && isCrossOriginPath(splitTarget(req.url ?? '/').path);
    if (crossOrigin) for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
    if (drain && !drain.admit(req, res)) return;
    if (crossOrigin && isPreflight(req.method, req.headers['access-control-request-method'] as string | undefined)) {
      facts(res).operation ??= 'preflight';
      res.writeHead(204, PREFLIGHT_HEADERS).end();
      return;
    }
    routeContract(req, res, next);
  };
  /** Requests the listener took through `first` before handing them to express. */
  const passed = new WeakSet<IncomingMessage>();
  app.use((req: Request, res: Response, next: NextFunction) => (passed.has(req) ? next() : first(req, res, next)));

  if (docs) app.use(docsRouter(docs));

  // Anything under /v1 the contract does not route: 405 with Allow when the path exists, else
  // 404. Other paths fall through, so an app embedding this one keeps its own routes.
  // The path within this app: an application may mount it under a prefix of its own.
  // express matches the mount path in any case; the contract's paths are lower case (`/V1/me` is 404).
  app.use('/v1', (req: Request, res: Response) => answerUnrouted(req, res, req.baseUrl.endsWith('/v1') ? `/v1${req.path}` : null, deps.problemTypeBase));

  // Errors raised in express's layers: the docs' own, mostly.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => answerBodyError(deps, req, res, err));

  const viaExpress = standaloneApp(app, deps.problemTypeBase);
  return {
    app,
    listener: (req, res) => {
      // An operator's `trust proxy` on `server.app` is express's to apply (`req.ip`): then every
      // request takes the express path.
      if (app.enabled('trust proxy')) return viaExpress(req, res);
      first(req, res, () => {
        passed.add(req);
        viaExpress(req, res);
      });
    },
  };
}

/**
 * GET /metrics, wherever it is served (the API's app, a worker's, the metrics port): Prometheus
 * text, outside /v1, without a token or the rate limit, not in the contract. True when answered.
 */
export function answerMetrics(metrics: AppExtras['metrics'], req: IncomingMessage, res: ServerResponse, onError: (error: unknown) => void): boolean {
  if (!metrics || req.method !== 'GET' || splitTarget(req.url ?? '/').path !== '/metrics') return false;
  metrics.metrics().then((text) => {
    res.writeHead(200, { 'Content-Type': metrics.contentType }).end(text);
  }, onError);
  return true;
}

/**
 * An express app as `listen()` serves it on its own: every path the app does not know answers a
 * 404 problem. `server.app` itself leaves paths outside /v1 to the application embedding it. The
 * fallback is express's final handler rather than a wrapping app, which would add a router hop
 * to every request.
 */
export function standaloneApp(app: express.Express, problemTypeBase: string): RequestListener {
  return (req, res) =>
    app(req as Request, res as Response, () => answerUnrouted(req, res, null, problemTypeBase));
}

/** A request no route took: the contract's 405 or 404 for a path under /v1 (`unroutedError`), else 404. */
function answerUnrouted(req: IncomingMessage, res: ServerResponse, path: string | null, problemTypeBase: string): void {
  facts(res).operation ??= 'unrouted';
  const reply = problemReply(unroutedError(path), requestLanguage(req), (res.getHeader('X-Request-Id') as string | undefined) ?? newRequestId(), problemTypeBase);
  res.writeHead(reply.status, reply.headers).end(reply.body);
}

/**
 * What a worker serves (`--role worker`): the health endpoints and, when asked, the metrics;
 * no /v1, so a worker behind a balancer by mistake answers 404 rather than the API.
 */
export function workerApp(probe: HealthProbe, metrics: AppExtras['metrics'], problemTypeBase: string): ServedApp {
  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    if (answerHealth(probe, req, res)) return;
    if (!answerMetrics(metrics, req, res, next)) next();
  });
  return { app, listener: standaloneApp(app, problemTypeBase) };
}
