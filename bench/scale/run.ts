/**
 * Scale-out benchmark on PostgreSQL: an API node in this process (`jobs: false`, it only queues)
 * and 1, then 2, worker processes (the CLI `start`, from source) on one fresh database, jobs on
 * pg-boss. Two measures per worker count:
 * - eight crawls of local sites (bench/crawl/site.ts) launched at once, until every one settles;
 * - a burst of webhook events to one local TLS receiver, until every delivery arrived.
 * Prints one JSON document with a `markdown` table (bench/run.ts puts it in docs/benchmarks.md).
 *
 *   npx tsx bench/scale/run.ts [--pages 5000] [--crawls 8] [--workers 1,2] [--events 1000] [--database postgres://…]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import knexFactory from 'knex';
import { createSiteAuditServer } from '../../packages/server/src/index.js';
import { TEST_CERT as CERT, TEST_KEY as KEY } from '../../tests/support/tls.js';
import { startBenchSite, type BenchSite } from '../crawl/site.js';

const ROOT = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
const CLI = path.join(ROOT, 'packages/server/src/cli.ts');
const log = (line: string) => process.stderr.write(`${line}\n`);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

async function worker(database: string): Promise<ChildProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'start', '--database', database, '--port', String(port), '--allow-private-addresses', '--log-level', 'warn'], {
    // One node process with tsx as its loader: the `tsx` command would relay SIGTERM through a parent
    // that sends SIGKILL when the child is slow to acknowledge it.
    env: { ...process.env, TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'), DATABASE_URL: '', NODE_ENV: 'production', SITEAUDIT_JOB_ENGINE: 'pg-boss' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stderr!.on('data', (c: Buffer) => (out += c));
  child.stdout!.on('data', (c: Buffer) => (out += c));
  child.on('exit', () => process.env.SCALE_BENCH_VERBOSE && log(out.slice(-4000)));
  // Ready once its port answers.
  for (let i = 0; i < 600; i++) {
    if (await fetch(`http://127.0.0.1:${port}/v1/`).then(() => true, () => false)) return child;
    if (child.exitCode !== null) throw new Error(`worker exited: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`worker did not start: ${out}`);
}

interface Figures {
  workers: number;
  crawlSeconds: number;
  pages: number;
  pagesPerSecond: number;
  deliveries: number;
  deliverySeconds: number;
  deliveriesPerSecond: number;
}

async function measure(workers: number, sites: BenchSite[], pages: number, events: number, base: string): Promise<Figures> {
  const name = `scale_${randomBytes(5).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  const target = new URL(base);
  target.pathname = `/${name}`;
  const database = target.toString();
  const api = await createSiteAuditServer({ database, jobs: false, network: { allowPrivateAddresses: true } });
  const children: ChildProcess[] = [];
  try {
    const team = await api.admin.createTeam({ slug: 'bench', name: 'Bench', plan: 'agency' });
    await api.admin.addMember({ team: 'bench', email: 'o@bench.test', name: 'O', role: 'owner' });
    const { token } = await api.admin.createToken({ team: 'bench', member: 'o@bench.test', name: 'bench', scopes: ['projects:read', 'projects:write', 'crawls:read', 'crawls:write', 'webhooks:read', 'webhooks:write'] });
    const { url } = await api.listen(0);
    const call = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${url}${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomBytes(8).toString('hex') },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as { data: any };
    };
    for (let i = 0; i < workers; i++) children.push(await worker(database));
    log(`scale: ${workers} worker(s) up`);

    // Crawls: every site at once.
    const crawlIds: string[] = [];
    const campaigns: string[] = [];
    for (const site of sites) {
      const project = (await call('POST', '/v1/projects', { url: `${site.url}/` })).data;
      const campaign = (await call('GET', `/v1/projects/${project.id}/campaigns`)).data[0];
      await call('PATCH', `/v1/campaigns/${campaign.id}`, { max_urls: pages, max_depth: 20 });
      campaigns.push(campaign.id);
    }
    const crawlStart = performance.now();
    for (const id of campaigns) crawlIds.push((await call('POST', `/v1/campaigns/${id}/crawls`)).data.id);
    let crawled = 0;
    for (;;) {
      // Polled gently: the team's rate limit (600 units a minute) counts these reads too.
      const states = await Promise.all(crawlIds.map(async (id) => (await call('GET', `/v1/crawls/${id}`)).data));
      if (states.every((c) => c?.stage_plan.settled)) {
        crawled = states.reduce((n, c) => n + Number(c.pages.crawled), 0);
        break;
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
    const crawlSeconds = (performance.now() - crawlStart) / 1000;
    log(`scale: ${workers} worker(s): ${crawlIds.length} crawls, ${crawled} pages in ${crawlSeconds.toFixed(1)} s`);

    // Webhook deliveries: one receiver, a burst of events published by the API node.
    const received = new Set<string>();
    let done: () => void = () => undefined;
    const all = new Promise<void>((resolve) => (done = resolve));
    const receiver = createServer({ key: KEY, cert: CERT }, (req, res) => {
      req.resume();
      req.on('end', () => {
        received.add(String(req.headers['webhook-id']));
        if (received.size >= events) done();
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    await call('POST', '/v1/webhooks', { url: `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['export.ready'] });
    const deliveryStart = performance.now();
    for (let i = 0; i < events; i++) {
      await api.knex.transaction((trx) => api.events.publish({ type: 'export.ready', teamId: team.id, data: { export: { id: `export-${i}` } } }, trx));
    }
    await all;
    const deliverySeconds = (performance.now() - deliveryStart) / 1000;
    receiver.closeAllConnections();
    receiver.close();
    log(`scale: ${workers} worker(s): ${events} deliveries in ${deliverySeconds.toFixed(1)} s`);
    return {
      workers,
      crawlSeconds: Math.round(crawlSeconds * 10) / 10,
      pages: crawled,
      pagesPerSecond: Math.round(crawled / crawlSeconds),
      deliveries: events,
      deliverySeconds: Math.round(deliverySeconds * 10) / 10,
      deliveriesPerSecond: Math.round(events / deliverySeconds),
    };
  } finally {
    for (const child of children) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await api.close();
    await admin.raw(`drop database if exists ${name} with (force)`);
    await admin.destroy();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '5000' },
      crawls: { type: 'string', default: '8' },
      workers: { type: 'string', default: '1,2' },
      events: { type: 'string', default: '1000' },
      database: { type: 'string', default: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres' },
    },
  });
  const pages = Number(values.pages);
  const sites = await Promise.all(Array.from({ length: Number(values.crawls) }, () => startBenchSite(pages)));
  const results: Figures[] = [];
  try {
    for (const workers of values.workers.split(',').map(Number)) results.push(await measure(workers, sites, pages, Number(values.events), values.database));
  } finally {
    await Promise.all(sites.map((s) => s.close()));
  }
  const cores = os.cpus().length;
  const markdown = [
    `${sites.length} crawls of ${pages}-page local sites at once, then ${values.events} webhook deliveries to one local receiver; API node in the benchmark's process (jobs off), workers as CLI processes, PostgreSQL with pg-boss; ${cores} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}).`,
    '',
    '| workers | crawls settled in | pages | pages/s | deliveries | delivered in | deliveries/s |',
    '|---|---|---|---|---|---|---|',
    ...results.map((r) => `| ${r.workers} | ${r.crawlSeconds} s | ${r.pages} | ${r.pagesPerSecond} | ${r.deliveries} | ${r.deliverySeconds} s | ${r.deliveriesPerSecond} |`),
  ].join('\n');
  process.stdout.write(`${JSON.stringify({ cores, pages, crawls: sites.length, events: Number(values.events), results, markdown })}\n`);
}

if (!process.env.SCALE_BENCH_CHILD) {
  // The receiver's self-signed certificate must be trusted by the workers and this process.
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'scale-bench-')), 'ca.pem');
  const existing = process.env.NODE_EXTRA_CA_CERTS;
  writeFileSync(file, (existing && existsSync(existing) ? `${readFileSync(existing, 'utf8')}\n` : '') + CERT);
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, NODE_EXTRA_CA_CERTS: file, SCALE_BENCH_CHILD: '1' } });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  await main();
}
