/** The Express application: request ids and language headers, the contract's routes, 404 and 405. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { VARY, allowedMethods } from '@siteaudit/schema';
import { contractRouter, newRequestId, problemReply, requestLanguage, type BinderDeps, type Handlers } from './binder.js';
import type { RequestDrain } from './drain.js';
import { ApiError } from './errors.js';

/** `drain` refuses requests once shutdown began and tracks those in flight (http/drain.ts). */
export function createApp(handlers: Handlers, deps: BinderDeps, drain?: RequestDrain): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // our ETags are computed by the binder, after authorisation
  app.set('query parser', 'simple');

  // One layer for every answer's headers and the contract's routes: each express layer a
  // request walks through costs it (docs/benchmarks.md, "API reads").
  const routeContract = contractRouter(handlers, deps);
  app.use((req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Request-Id', newRequestId());
    res.setHeader('Content-Language', requestLanguage(req));
    res.setHeader('Vary', VARY);
    if (drain && !drain.admit(req, res)) return;
    routeContract(req, res, next);
  });

  // Anything under /v1 the contract does not route: 405 with Allow when the path exists, else
  // 404. Other paths fall through, so an app embedding this one keeps its own routes.
  app.use('/v1', (req: Request, res: Response) => {
    // The path within this app: an application may mount it under a prefix of its own.
    const allowed = allowedMethods(`/v1${req.path}`);
    const error = allowed.length > 0 ? new ApiError('method_not_allowed', {}, { Allow: allowed.join(', ') }) : new ApiError('not_found');
    const reply = problemReply(error, requestLanguage(req), res.getHeader('X-Request-Id') as string);
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
    const reply = problemReply(error ?? new ApiError('internal_error'), requestLanguage(req), res.getHeader('X-Request-Id') as string);
    res.status(reply.status).set(reply.headers).end(reply.body);
  });
  return app;
}

/**
 * The app as `listen()` serves it on its own: every path the API does not know answers a 404
 * problem. `server.app` itself leaves paths outside /v1 to the application embedding it. The
 * fallback is express's final handler rather than a wrapping app, which would add a router hop
 * to every request.
 */
export function standaloneApp(app: express.Express): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) =>
    app(req as Request, res as Response, () => {
      const request = req as Request;
      const reply = problemReply(new ApiError('not_found'), requestLanguage(request), (res.getHeader('X-Request-Id') as string | undefined) ?? newRequestId());
      res.writeHead(reply.status, reply.headers).end(reply.body);
    });
}
