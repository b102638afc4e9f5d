#!/usr/bin/env node
/**
 * Server smoke test of the built package, run by CI on each supported Node version with that
 * version's `node` (`/path/to/node scripts/smoke.mjs`): the operator creates a team, a member and
 * a token with `siteaudit-server admin`, starts `siteaudit-server start` on an SQLite file, and
 * a client creates a project, crawls a small local site and downloads a PDF export of it.
 * Plain JavaScript on purpose: it runs with no TypeScript loader, as a user of the package would.
 * It needs `npm run build` first; every request goes to 127.0.0.1 and every wait is bounded.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// The published bin launcher: with no TypeScript loader it would pick the source in a clone, so the
// smoke test runs the build it launches in an installed package.
const CLI = path.join(ROOT, 'packages/server/dist/cli.js');
const TIMEOUT_MS = 60_000;

const site = {
  '/': '<a href="/about">About</a> <a href="/missing">Missing</a>',
  '/about': '<a href="/">Home</a>',
};

function fail(message) {
  throw new Error(`smoke (Node ${process.version}): ${message}`);
}

function run(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, DATABASE_URL: '', SITEAUDIT_EXPORT_DIR: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`siteaudit-server ${args.join(' ')} exited with ${code}: ${stderr}`))));
  });
}

async function until(what, check) {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

async function main() {
  if (!existsSync(CLI)) fail(`${CLI} is missing: run npm run build first`);
  const started = Date.now();
  const dir = await mkdtemp(path.join(tmpdir(), 'siteaudit-smoke-'));
  const database = path.join(dir, 'smoke.db');
  const pages = createServer((req, res) => {
    const body = site[new URL(req.url, 'http://x').pathname];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><title>Smoke test page ${req.url}</title></head><body><h1>Smoke</h1>${body ?? 'Not found'}</body></html>`);
  });
  const sitePort = await listen(pages);
  let server;
  let output = '';
  try {
    const admin = (...args) => run(['admin', '--database', database, '--json', ...args], dir).then((out) => JSON.parse(out));
    await admin('create-team', '--slug', 'smoke', '--name', 'Smoke');
    await admin('add-member', '--team', 'smoke', '--email', 'smoke@smoke.test', '--name', 'Smoke', '--role', 'owner');
    const { token } = await admin('create-token', '--team', 'smoke', '--member', 'smoke@smoke.test', '--name', 'smoke', '--scopes', 'all');

    // A free port: bind one, let it go, hand it to the server.
    const probe = createServer();
    const port = await listen(probe);
    await new Promise((r) => probe.close(r));
    server = spawn(process.execPath, [CLI, 'start', '--port', String(port), '--database', database, '--allow-private-addresses'], {
      cwd: dir,
      env: { ...process.env, DATABASE_URL: '', SITEAUDIT_EXPORT_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout.on('data', (c) => (output += c));
    server.stderr.on('data', (c) => (output += c));
    await until('the server to listen', () => {
      if (server.exitCode !== null) fail(`the server exited with ${server.exitCode}: ${output}`);
      return /listening on/.test(output);
    });

    const base = `http://127.0.0.1:${port}/v1`;
    const call = async (method, url, body, headers = {}) => {
      const send = () =>
        fetch(`${base}${url}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
          body: body ? JSON.stringify(body) : undefined,
        });
      // A read is sent again once when its connection failed (a keep-alive connection the server
      // closed as it was reused: a reset on a busy machine), as an HTTP client retries an idempotent request.
      const res = await send().catch((error) => (method === 'GET' ? send() : Promise.reject(error)));
      if (!res.ok) fail(`${method} ${url} answered ${res.status}: ${await res.text()}`);
      return res;
    };
    const json = async (...args) => (await (await call(...args)).json()).data;

    const project = await json('POST', '/projects', { url: `http://127.0.0.1:${sitePort}/`, name: 'Smoke site' });
    const [campaign] = await json('GET', `/projects/${project.id}/campaigns`);
    const launched = await json('POST', `/campaigns/${campaign.id}/crawls`, undefined, { 'idempotency-key': 'smoke-crawl' });
    const crawl = await until('the crawl to finish', async () => {
      const c = await json('GET', `/crawls/${launched.id}`);
      // Finished, and settled by post-processing (scores, comparison): an export needs both.
      return c.active || (c.status === 'completed' && !c.stage_plan.settled) ? null : c;
    });
    if (crawl.status !== 'completed') fail(`the crawl ended ${crawl.status}: ${crawl.error}`);
    if (crawl.pages.crawled < 2) fail(`the crawl fetched ${crawl.pages.crawled} pages, expected at least 2`);

    const queued = await json('POST', `/crawls/${crawl.id}/exports`, { format: 'pdf' });
    const ready = await until('the export', async () => {
      const e = await json('GET', `/exports/${queued.id}`);
      if (e.status === 'failed') fail(`the export failed: ${JSON.stringify(e)}`);
      return e.status === 'ready' ? e : null;
    });
    const file = await call('GET', `/exports/${ready.id}/download`);
    const bytes = Buffer.from(await file.arrayBuffer());
    if (file.headers.get('content-type') !== 'application/pdf' || bytes.subarray(0, 5).toString() !== '%PDF-') fail('the download is not a PDF');
    if (!existsSync(path.join(dir, '.siteaudit', 'exports', `${ready.id}.pdf`))) fail('the export file is not at .siteaudit/exports/<id>.pdf');

    server.kill('SIGTERM');
    const stopped = await until('the server to stop', () => (server.exitCode !== null || server.signalCode !== null ? { code: server.exitCode, signal: server.signalCode } : null));
    if (stopped.code !== 0) fail(`the server stopped with ${stopped.code ?? stopped.signal} on SIGTERM`);
    console.log(
      `smoke (Node ${process.version}): admin, start, a crawl of ${crawl.pages.crawled} pages and a ${bytes.length}-byte PDF export in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } catch (error) {
    // What failed, why (a failed fetch's cause: refused, reset…) and what the server said last.
    const cause = error.cause ? ` (${error.cause.code ?? error.cause.message ?? error.cause})` : '';
    throw new Error(`${error.message}${cause}; the server ${server?.exitCode !== null && server ? `exited with ${server.exitCode}` : 'was running'}; its last output:\n${output.slice(-3000)}`);
  } finally {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    pages.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});
