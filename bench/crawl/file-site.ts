/**
 * The dense site as files, served by a web server of its own process (`--serve nginx` or
 * `--serve python`): the crawl CPU issue measured its ceiling on a site served by another program,
 * whose work per page set it (1,820 pages/s where the bench's own site gave 7,612 in the same
 * hour). Each server runs on the same two cores as the crawl, as the issue's did. The pages are
 * the same bytes as `densePageHtml`'s; nginx gzips them on request (gzip_comp_level 1, its
 * default), Python's http.server (ThreadingHTTPServer) sends them as they are.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BenchSite, ServedCounts } from './site.js';
import { densePageHtml, pathOf } from './site.js';

export type FileServer = 'nginx' | 'python';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

const accepting = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const nginxConf = (root: string, port: number, dir: string) => `daemon off;
worker_processes auto;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp; proxy_temp_path ${dir}/tmp; fastcgi_temp_path ${dir}/tmp; uwsgi_temp_path ${dir}/tmp; scgi_temp_path ${dir}/tmp;
  types { image/jpeg jpg; application/xml xml; text/plain txt; text/markdown md; }
  default_type text/html;
  charset utf-8;
  gzip on; gzip_types text/html application/xml; gzip_min_length 0; gzip_vary on;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location = / { try_files /index.html =404; }
    location = /llms.txt { default_type text/markdown; }
  }
}
`;

// SimpleHTTPRequestHandler over HTTP/1.1 (keep-alive); files without a suffix are HTML.
const PYTHON = `
import functools, http.server, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    disable_nagle_algorithm = True
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, '': 'text/html; charset=utf-8', '.xml': 'application/xml', '.txt': 'text/plain'}
    def log_message(self, *args): pass
    def translate_path(self, p):
        return super().translate_path('/index.html' if p.split('?')[0] == '/' else p)
http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), functools.partial(Handler, directory=sys.argv[2])).serve_forever()
`;

/** Writes the dense site of `pages` pages under a temporary folder and serves it with `server`. */
export async function startFileSite(pages: number, server: FileServer, external: string): Promise<BenchSite> {
  const dir = await mkdtemp(path.join(tmpdir(), `siteaudit-bench-${server}-`));
  // nginx's workers run as `nobody` when started by root: the folder must be theirs to read.
  await chmod(dir, 0o755);
  const root = path.join(dir, 'www');
  await mkdir(path.join(root, 'p'), { recursive: true });
  await mkdir(path.join(root, 'img'), { recursive: true });
  await mkdir(path.join(dir, 'tmp'), { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const shape = { pages, origin: url, external };
  for (let id = 0; id < pages; id++) await writeFile(path.join(root, id === 0 ? 'index.html' : pathOf(id).slice(1)), densePageHtml(id, shape));
  await writeFile(path.join(root, 'img', '1.jpg'), Buffer.alloc(20 * 1024));
  const urls = Array.from({ length: pages }, (_, id) => `<url><loc>${url}${pathOf(id)}</loc></url>`);
  await writeFile(path.join(root, 'sitemap.xml'), `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`);
  await writeFile(path.join(root, 'robots.txt'), `User-agent: *\nDisallow: /cart\n\nSitemap: ${url}/sitemap.xml\n`);
  await writeFile(path.join(root, 'llms.txt'), '# Bench dense site\n');

  let child: ChildProcess;
  if (server === 'nginx') {
    const conf = path.join(dir, 'nginx.conf');
    await writeFile(conf, nginxConf(root, port, dir));
    child = spawn(process.env.NGINX ?? '/usr/sbin/nginx', ['-p', dir, '-c', conf], { stdio: 'ignore' });
  } else child = spawn('python3', ['-c', PYTHON, String(port), root], { stdio: 'ignore' });
  // Not left serving if the bench dies without closing the site.
  const orphaned = () => child.kill('SIGTERM');
  process.once('exit', orphaned);
  for (let i = 0; i < 200 && !(await accepting(port)); i++) {
    if (child.exitCode !== null) throw new Error(`${server} exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // Requests served are not counted: the server is another program.
  const zero = (): ServedCounts => ({ pages: 0, notFound: 0, redirects: 0, images: 0, other: 0, external: 0, bytes: 0 });
  return {
    url,
    external,
    pages,
    counts: zero(),
    reset: zero,
    async close() {
      process.off('exit', orphaned);
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
