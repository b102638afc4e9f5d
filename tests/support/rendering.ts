/** Small local sites for the browser tests, and the skip rule when no Chromium is installed. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromiumAvailable, resolveChromePath } from '../../packages/server/src/rendering/index.js';

export const CHROME = resolveChromePath();
export const HAS_CHROMIUM = chromiumAvailable(CHROME);
/** Suite title suffix that says why a browser suite did not run. */
export const SKIP_NOTE = HAS_CHROMIUM ? '' : ` (skipped: no Chromium at ${CHROME}; install it or set CHROME_PATH)`;
/** Generous limits: a 2-core CI machine runs Chromium next to the other suites. */
export const BROWSER_TIMEOUT = 120_000;

export interface Route {
  status?: number;
  type?: string;
  body: string;
  headers?: Record<string, string>;
}

export interface LocalSite {
  url: string;
  hits: Map<string, number>;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A route function may return a promise that never settles, to play a server that never answers. */
export async function serve(routes: Record<string, Route | ((url: string) => Route)>): Promise<LocalSite> {
  const hits = new Map<string, number>();
  const requests: LocalSite['requests'] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    requests.push({ path, headers: req.headers });
    const entry = routes[path];
    const route = typeof entry === 'function' ? entry(base) : entry;
    if (route instanceof Promise) return;
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>not found</body></html>');
      return;
    }
    res.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'text/html; charset=utf-8', ...route.headers });
    res.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    hits,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A page with everything the page-level checks look for, so only what a test adds shows up. */
export function page(opts: { title?: string | null; head?: string; body: string; lang?: string | null }): string {
  const title = opts.title === null ? '' : `<title>${opts.title ?? 'A page title of a decent length'}</title>`;
  const lang = opts.lang === null ? '' : ` lang="${opts.lang ?? 'en'}"`;
  return `<!doctype html><html${lang}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">${title}${opts.head ?? ''}</head><body>${opts.body}</body></html>`;
}
