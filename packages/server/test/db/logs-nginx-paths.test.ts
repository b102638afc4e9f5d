/**
 * Paths as the server resolved them (docs/decisions/logs.md), checked against a real nginx: it
 * serves a small folder on a free port from a prefix and configuration of its own in a temporary
 * directory, the site is crawled, then the spellings of each target are requested raw (node:http:
 * `%2D` and `-`, `%5c` and `\`, `%7e`, dot segments, raw UTF-8, `//x/`), nginx's own access log is
 * imported, and the statistics and the join must say what nginx served: one path per file nginx
 * resolved the spellings to, with the statuses it answered, and `//x/page.html` a path of its own.
 * Skipped, saying so, when nginx is not installed (`apt-get install nginx`; .ci/run installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';

/** The nginx binary; `SITEAUDIT_TEST_NGINX` names another one (`none`: as if absent). */
const NGINX = process.env.SITEAUDIT_TEST_NGINX
  ? process.env.SITEAUDIT_TEST_NGINX === 'none'
    ? null
    : process.env.SITEAUDIT_TEST_NGINX
  : (['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx', '/usr/local/bin/nginx'].find((p) => existsSync(p)) ?? null);
const APPLEBOT = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)';

const page = (title: string, body = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="${'A page served by nginx for the log path tests. '.repeat(2)}"></head><body><h1>${title}</h1>${body}<p>${'Words of content. '.repeat(40)}</p></body></html>`;

/** The folder nginx serves: file name (as on disk) → content. */
const FILES: Record<string, string> = {
  'index.html': page('Home', ['page.html', 'x/page.html', 'a-b.html', 'a%5Cb.html', '~t.html', 'caf%C3%A9.html'].map((href) => `<a href="${href}">${href}</a>`).join(' ')),
  'page.html': page('Page at the root'),
  'x/page.html': page('Page in x'),
  'a-b.html': page('A dash'),
  'a\\b.html': page('A backslash'),
  '~t.html': page('A tilde'),
  'café.html': page('A café'),
};

/**
 * What is requested, as the bytes on the wire (a JS string in latin1: `utf8` turns UTF-8 text into
 * it), and the path the statistics must show it under: the rule under test.
 */
const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
const VARIANTS: [wire: string, path: string][] = [
  ['/', '/'],
  ['/page.html', '/page.html'],
  ['/x/../page.html', '/page.html'],
  ['/x/%2E%2E/page.html', '/page.html'],
  ['/x/page.html', '/x/page.html'],
  ['/x/./page.html', '/x/page.html'],
  ['/%78/page.html', '/x/page.html'],
  ['//x/page.html', '//x/page.html'],
  ['/a-b.html', '/a-b.html'],
  ['/a%2Db.html', '/a-b.html'],
  ['/a%2db.html', '/a-b.html'],
  ['/a\\b.html', '/a%5Cb.html'],
  ['/a%5Cb.html', '/a%5Cb.html'],
  ['/a%5cb.html', '/a%5Cb.html'],
  ['/~t.html', '/~t.html'],
  ['/%7Et.html', '/~t.html'],
  ['/%7et.html', '/~t.html'],
  ['/caf%C3%A9.html', '/caf%C3%A9.html'],
  ['/caf%c3%a9.html', '/caf%C3%A9.html'],
  [utf8('/café.html'), '/caf%C3%A9.html'],
  ['/page.html?q=%7e', '/page.html?q=~'],
  ['/a"b.html', '/a%22b.html'],
  ['/missing.html', '/missing.html'],
];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function listening(port: number, child: ChildProcess, errorLog: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('nginx did not listen');
}

/** One raw request; what nginx answered. */
function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { 'user-agent': APPLEBOT, connection: 'close' } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('latin1')));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(NGINX !== null)('paths against a real nginx', () => {
  it('is skipped: nginx is not installed here (apt-get install nginx), so the path rules were not checked against a real server', () => {
    console.warn('logs-nginx-paths: nginx not found (/usr/sbin/nginx); the real-nginx path test was skipped');
  });
});

describe.runIf(NGINX !== null)('paths against a real nginx', () => {
  let h: Harness;
  let dir: string;
  let nginx: ChildProcess;
  let port: number;
  let accessLog: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'logs-nginx-'));
    for (const sub of ['www/x', 'logs', 'tmp']) mkdirSync(join(dir, sub), { recursive: true });
    for (const [name, content] of Object.entries(FILES)) writeFileSync(join(dir, 'www', name), content);
    port = await freePort();
    accessLog = join(dir, 'logs', 'access.log');
    const errorLog = join(dir, 'logs', 'error.log');
    const conf = join(dir, 'nginx.conf');
    writeFileSync(
      conf,
      `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${errorLog};
events { worker_connections 64; }
http {
  types { text/html html; }
  default_type application/octet-stream;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  access_log ${accessLog} combined;
  server {
    listen 127.0.0.1:${port};
    root ${dir}/www;
  }
}
`,
    );
    nginx = spawn(NGINX!, ['-p', dir, '-c', conf, '-e', errorLog], { stdio: 'ignore' });
    await listening(port, nginx, errorLog);
    h = await startHarness({ logs: { resolver: null } });
  });
  afterAll(async () => {
    await h?.close();
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("counts each file nginx served once, whatever the spelling, with nginx's statuses, and joins it with the crawl", async () => {
    const project = (await (await h.call('POST', '/v1/projects', { body: { url: `http://127.0.0.1:${port}/`, name: 'nginx' } })).json()).data.id;
    const campaign = (await (await h.call('GET', `/v1/projects/${project}/campaigns`)).json()).data[0];
    expect((await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': `nginx-${port}` } })).status).toBe(202);
    await h.server.jobs.idle();
    const crawled = (await (await h.call('GET', `/v1/projects/${project}/logs/findings?kind=indexable_not_visited&limit=100`)).json()).data.map((f: { path: string }) => f.path);
    // The crawl found every page the home links to (none visited by a bot yet).
    expect(crawled.sort()).toEqual(['/', '/a%5Cb.html', '/a-b.html', '/caf%C3%A9.html', '/page.html', '/x/page.html', '/~t.html'].sort());

    // The crawler's own requests are in the log too: only the lines after them are imported.
    const from = statSync(accessLog).size;
    const answers: { wire: string; path: string; status: number; body: string }[] = [];
    for (const [wire, path] of VARIANTS) answers.push({ wire, path, ...(await get(port, wire)) });
    let lines: string[] = [];
    for (let i = 0; i < 100 && lines.length < VARIANTS.length; i++) {
      lines = readFileSync(accessLog).subarray(from).toString('utf8').split('\n').filter(Boolean);
      if (lines.length < VARIANTS.length) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(lines).toHaveLength(VARIANTS.length);
    // nginx wrote its escapes: the backslash and the quote as \x5C and \x22, raw UTF-8 as \xC3\xA9.
    expect(lines.some((l) => l.includes('GET /a\\x5Cb.html '))).toBe(true);
    expect(lines.some((l) => l.includes('GET /caf\\xC3\\xA9.html '))).toBe(true);

    // The spellings grouped under one path were served the same file by nginx.
    const byPath = new Map<string, typeof answers>();
    for (const a of answers) byPath.set(a.path, [...(byPath.get(a.path) ?? []), a]);
    for (const [path, group] of byPath) expect(new Set(group.map((a) => `${a.status} ${a.body}`)), path).toHaveProperty('size', 1);
    // `//x/page.html` is the same file to this nginx (merge_slashes), yet another URL: kept apart.
    expect(answers.find((a) => a.path === '//x/page.html')!.body).toBe(answers.find((a) => a.path === '/x/page.html')!.body);

    const res = await fetch(`${h.url}/v1/projects/${project}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: lines.join('\n') + '\n' });
    expect(res.status).toBe(202);
    await h.server.jobs.idle();
    const imp = (await (await h.call('GET', `/v1/projects/${project}/log-imports/${(await res.json()).data.id}`)).json()).data;
    expect(imp).toMatchObject({ status: 'completed', lines: { read: VARIANTS.length, kept: VARIANTS.length, refused: 0 }, bot_hits: VARIANTS.length });

    // Status per path: what nginx answered each spelling, summed under the normalised path.
    const expected: Record<string, Record<string, number>> = {};
    for (const a of answers) (expected[a.path] ??= {})[a.status] = (expected[a.path][a.status] ?? 0) + 1;
    const urls = (await (await h.call('GET', `/v1/projects/${project}/logs/urls?family=applebot&limit=100`)).json()).data as { path: string; status_codes: Record<string, number> }[];
    expect(Object.fromEntries(urls.map((u) => [u.path, u.status_codes]))).toEqual(expected);
    expect(expected['/a%22b.html']).toEqual({ '404': 1 });
    expect(expected['/a-b.html']).toEqual({ '200': 3 });

    // The join: every crawled page visited; what the crawl did not find is what nginx served beside it.
    const notVisited = (await (await h.call('GET', `/v1/projects/${project}/logs/findings?kind=indexable_not_visited&limit=100`)).json()).data;
    expect(notVisited).toEqual([]);
    const notInCrawl = (await (await h.call('GET', `/v1/projects/${project}/logs/findings?kind=not_in_crawl&limit=100`)).json()).data as { path: string; bot_hits: number }[];
    expect(notInCrawl.map((f) => `${f.path} ${f.bot_hits}`)).toEqual(['//x/page.html 1', '/a%22b.html 1', '/missing.html 1', '/page.html?q=~ 1']);
    const insights = (await (await h.call('GET', `/v1/projects/${project}/logs/insights`)).json()).data;
    expect(insights.coverage).toEqual({ indexable_pages: 7, visited: 7, not_in_crawl_urls: 4 });
  }, 90_000);
});
