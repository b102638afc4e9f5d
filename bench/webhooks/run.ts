/**
 * Webhook delivery benchmark: a burst of events fanned out to 5 local TLS receivers (3 fast, one
 * slow, one always failing), delivered by the server's own job runner. The server clock is moved
 * forward to each next retry, so the whole ~28 h retry schedule runs in real seconds. Prints one
 * JSON document on stdout: delivered counts, times, whether the failing receiver got disabled,
 * and whether anything was lost (every good receiver got every event id, nothing left pending).
 *
 *   npx tsx bench/webhooks/run.ts [--events 1000] [--slow-ms 200] [--database sqlite::memory:|postgres://…]
 *
 * The receivers use a self-signed certificate: the script re-runs itself with NODE_EXTRA_CA_CERTS
 * pointing at it, so the server's ordinary TLS verification accepts them.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { createSiteAuditServer } from '../../packages/server/src/index.js';
// The self-signed certificate for 127.0.0.1 the webhook tests use.
import { TEST_CERT as CERT, TEST_KEY as KEY } from '../../tests/support/tls.js';

interface Receiver {
  name: string;
  url: string;
  ids: string[];
  requests: number;
  badSignatures: number;
  secret: string;
  webhookId: string;
  /** When every event had reached it, in ms since the burst started. */
  completeMs: number | null;
  close(): Promise<void>;
}

let started = 0;
let expectedEvents = 0;

async function receiver(name: string, answer: () => Promise<number>): Promise<Receiver> {
  const r: Receiver = { name, url: '', ids: [], requests: 0, badSignatures: 0, secret: '', webhookId: '', completeMs: null, close: async () => undefined };
  const server: Server = createServer({ key: KEY, cert: CERT }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      r.requests += 1;
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id']);
      // Signature checked without the 5-minute window: the server clock runs ahead during retries.
      const signedAt = new Date(Number(req.headers['webhook-timestamp']) * 1000);
      const expected = new Webhook(r.secret).sign(id, signedAt, body);
      if (!String(req.headers['webhook-signature']).split(' ').includes(expected)) r.badSignatures += 1;
      const status = await answer();
      if (status < 300) r.ids.push(id);
      if (r.completeMs === null && r.ids.length === expectedEvents) r.completeMs = Math.round(performance.now() - started);
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/${name}`;
  r.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return r;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      events: { type: 'string', default: '1000' },
      'slow-ms': { type: 'string', default: '200' },
      database: { type: 'string', default: 'sqlite::memory:' },
    },
  });
  const events = Number(values.events);
  expectedEvents = events;
  const slowMs = Number(values['slow-ms']);

  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  const server = await createSiteAuditServer({
    database: values.database,
    clock,
    network: { allowPrivateAddresses: true },
    secretKey: 'bench-secret-key-0123456789abcdef0123456789',
    validateResponses: false,
    logger: { error: (message, error) => console.error(message, error) },
  });
  const { url } = await server.listen(0);
  const team = await server.admin.createTeam({ slug: `bench-${Date.now()}`, name: 'Bench', plan: 'agency' });
  await server.admin.addMember({ team: team.slug, email: 'owner@bench.test', name: 'Owner', role: 'owner' });
  const { token } = await server.admin.createToken({ team: team.slug, member: 'owner@bench.test', name: 'bench', scopes: ['webhooks:read', 'webhooks:write'] });
  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${url}${p}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await res.json()) as { data: any };
  };

  const ok = async () => 200;
  const receivers = [
    await receiver('fast-1', ok),
    await receiver('fast-2', ok),
    await receiver('fast-3', ok),
    await receiver('slow', () => new Promise((resolve) => setTimeout(() => resolve(200), slowMs))),
    await receiver('failing', async () => 500),
  ];
  for (const r of receivers) {
    const { data } = await api('POST', '/v1/webhooks', { url: r.url, events: ['crawl.completed'] });
    r.secret = data.secret;
    r.webhookId = data.id;
  }

  started = performance.now();
  const published: string[] = [];
  for (let i = 0; i < events; i++) {
    // One transaction per event, as a module publishing with the change that caused it.
    const event = await server.knex.transaction((trx) =>
      server.events.publish({ type: 'crawl.completed', teamId: team.id, data: { crawl: { id: `crawl-${i}` } } }, trx),
    );
    published.push(event.id);
  }
  const burstMs = performance.now() - started;

  await server.jobs.idle();
  const firstPassMs = performance.now() - started;
  const goodAfterFirstPass = Object.fromEntries(receivers.map((r) => [r.name, r.ids.length]));

  // Retries: jump the clock a minute past the next due attempt until nothing is pending (a
  // minute lets retries that jitter spread out run in batches instead of one per jump).
  let jumps = 0;
  for (;;) {
    const next = (await server.knex('webhook_deliveries').where({ status: 'pending' }).min({ at: 'next_attempt_at' }).first()) as { at: string | null } | undefined;
    if (!next?.at) break;
    offset += Math.max(0, Date.parse(next.at) - clock().getTime()) + 60_000;
    jumps += 1;
    await server.jobs.idle();
  }
  const totalMs = performance.now() - started;

  const failing = receivers[4];
  const failingHook = (await api('GET', `/v1/webhooks/${failing.webhookId}`)).data;
  const statusRows = (await server.knex('webhook_deliveries')
    .join('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
    .where('webhooks.team_id', team.id)
    .groupBy('webhooks.url', 'webhook_deliveries.status', 'webhook_deliveries.error_reason')
    .select('webhooks.url', 'webhook_deliveries.status', 'webhook_deliveries.error_reason')
    .count({ n: '*' })) as { url: string; status: string; error_reason: string | null; n: string | number }[];

  const expected = new Set(published);
  const perReceiver = receivers.map((r) => {
    const unique = new Set(r.ids);
    return {
      receiver: r.name,
      requests: r.requests,
      delivered: r.ids.length,
      unique_events: unique.size,
      duplicates: r.ids.length - unique.size,
      missing: [...expected].filter((id) => !unique.has(id)).length,
      bad_signatures: r.badSignatures,
      after_first_pass: goodAfterFirstPass[r.name],
      all_events_in_ms: r.completeMs,
      log: Object.fromEntries(statusRows.filter((row) => row.url === r.url).map((row) => [`${row.status}${row.error_reason ? `:${row.error_reason}` : ''}`, Number(row.n)])),
    };
  });
  const good = perReceiver.slice(0, 4);
  const pendingLeft = statusRows.filter((row) => row.status === 'pending').reduce((n, row) => n + Number(row.n), 0);

  console.log(
    JSON.stringify(
      {
        database: values.database.startsWith('postgres') ? 'postgres' : 'sqlite',
        events,
        subscriptions: receivers.length,
        slow_receiver_ms: slowMs,
        burst_publish_ms: Math.round(burstMs),
        first_pass_ms: Math.round(firstPassMs),
        first_pass_deliveries_per_s: Math.round((receivers.reduce((n, r) => n + (goodAfterFirstPass[r.name] ?? 0), 0) / firstPassMs) * 1000),
        total_ms_with_retries: Math.round(totalMs),
        clock_jumps: jumps,
        simulated_hours: Math.round((offset / 3_600_000) * 10) / 10,
        failing_disabled: !failingHook.active && failingHook.disabled_reason === 'consecutive_failures',
        failing_subscription: { active: failingHook.active, disabled_reason: failingHook.disabled_reason, consecutive_failures: failingHook.consecutive_failures },
        nothing_lost: good.every((r) => r.missing === 0) && pendingLeft === 0,
        pending_left: pendingLeft,
        receivers: perReceiver,
      },
      null,
      2,
    ),
  );

  await server.close();
  await Promise.all(receivers.map((r) => r.close()));
}

if (!process.env.WEBHOOK_BENCH_CHILD) {
  // Node reads extra CAs only at start-up: run again with the receivers' certificate trusted,
  // next to any extra CAs already configured (the variable takes a single file).
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'wh-bench-')), 'ca.pem');
  const existing = process.env.NODE_EXTRA_CA_CERTS;
  writeFileSync(file, (existing && existsSync(existing) ? `${readFileSync(existing, 'utf8')}\n` : '') + CERT);
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, NODE_EXTRA_CA_CERTS: file, WEBHOOK_BENCH_CHILD: '1' },
  });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  await main();
}
