/**
 * A tiny static file server over a folder, for crawling real sites installed on the machine
 * (real-sites.test.ts). It behaves like a plain web server's defaults:
 *
 * - GET and HEAD only (405 otherwise); the query string is ignored;
 * - the path is percent-decoded and must stay inside the folder (`..` cannot escape: URLs reach
 *   here with their dot segments resolved, and anything else answers 404);
 * - a directory answers its `index.html` when the path ends with `/`, and a 301 to the path with
 *   a `/` appended when it does not (as Apache and nginx do); a directory without an index is 404;
 * - a file answers 200 with a content type from its extension (application/octet-stream when
 *   unknown), symbolic links followed (Debian links shared JavaScript libraries into docs);
 * - anything else answers 404.
 *
 * `resolvePath` is the one mapping from a URL path to an answer, used by the server and by the
 * test's reading of the files, so the two agree on what each URL is.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.gz': 'application/gzip',
  '.zip': 'application/zip',
  '.bz2': 'application/x-bzip2',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

export function contentTypeOf(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export type Resolved =
  | { status: 200; file: string; contentType: string; size: number }
  | { status: 301; location: string }
  | { status: 404 };

/** What the server answers for URL path `pathname` (still percent-encoded) under `root`. */
export function resolvePath(root: string, pathname: string): Resolved {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { status: 404 };
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.split('/').some((s) => s === '..')) return { status: 404 };
  const path = join(root, decoded);
  if (path !== root && !path.startsWith(root.endsWith(sep) ? root : root + sep)) return { status: 404 };
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return { status: 404 };
  if (stat.isDirectory()) {
    if (!pathname.endsWith('/')) return { status: 301, location: `${pathname}/` };
    const index = join(path, 'index.html');
    const indexStat = statSync(index, { throwIfNoEntry: false });
    return indexStat?.isFile() ? { status: 200, file: index, contentType: contentTypeOf(index), size: indexStat.size } : { status: 404 };
  }
  if (!stat.isFile()) return { status: 404 };
  return { status: 200, file: path, contentType: contentTypeOf(path), size: stat.size };
}

export interface StaticSite {
  origin: string;
  /** Requests answered, as "METHOD path status". */
  requests: string[];
  close(): Promise<void>;
}

export async function serveFolder(root: string): Promise<StaticSite> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const pathname = q === -1 ? target : target.slice(0, q);
    const answer = (status: number, headers: Record<string, string | number> = {}, body = '') => {
      requests.push(`${req.method} ${target} ${status}`);
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(405, { allow: 'GET, HEAD' }, 'method not allowed\n');
    const resolved = resolvePath(root, pathname);
    if (resolved.status === 404) return answer(404, {}, 'not found\n');
    if (resolved.status === 301) return answer(301, { location: resolved.location + (q === -1 ? '' : target.slice(q)) }, 'moved\n');
    requests.push(`${req.method} ${target} 200`);
    res.writeHead(200, { 'content-type': resolved.contentType, 'content-length': resolved.size });
    if (req.method === 'HEAD') return res.end();
    const stream = createReadStream(resolved.file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
