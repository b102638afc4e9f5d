/**
 * An upload retried with its Idempotency-Key (docs/decisions/logs.md, "The upload"): the server
 * reads the body (hashing it) before it claims the key, so the replay is answered after the body
 * is read and every HTTP library sees it (Node's fetch got EPIPE when the server answered a 4 MiB
 * replay unread and closed); another body under the same key is 409 idempotency.key_reused, even
 * of the same length.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, SiteAuditError } from '@siteaudit/client';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { expectProblem } from '../../../../tests/support/http.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';

const MiB = 1024 * 1024;
let h: Harness;

/** `size` bytes of human log lines, varied by `seed` so two bodies differ (the last line is cut, as a log's can be). */
function logBody(size: number, seed: string): Buffer {
  const line = Buffer.from(`192.0.2.1 - - [09/Mar/2026:08:15:00 +0000] "GET /${seed}/page HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0"\n`);
  const body = Buffer.alloc(size);
  for (let at = 0; at < size; at += line.length) line.copy(body, at);
  return body;
}

async function newProject(name: string): Promise<string> {
  const res = await h.call('POST', '/v1/projects', { body: { url: 'https://example.com/', name } });
  return (await res.json()).data.id;
}

/** A POST over node:http on a keep-alive agent: status, headers, body text. */
function nodeHttpUpload(agent: http.Agent, path: string, key: string, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${h.url}${path}`, { method: 'POST', agent, headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain', 'content-length': body.length, 'idempotency-key': key } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  // Every test here shares one team, and the polls below wait on imports queued behind 64 MiB ones:
  // on a slow machine they alone spent the agency plan's 600 a minute and the last upload got 429.
  h = await startHarness({ logs: { resolver: null }, plans: { agency: { rateLimits: { minute: null } } } });
});
afterAll(async () => {
  await h?.close();
});

describe.each([1, 4, 64])('an upload of %i MiB retried with its Idempotency-Key', (mib) => {
  const size = mib * MiB;
  const body = logBody(size, `first-${mib}`);
  // The same length, other bytes: what the fingerprint of headers alone could not tell apart.
  const other = logBody(size, `other-${mib}`);
  // Each 64 MiB request crosses HTTP, the disk and SHA-256: one retry is enough there.
  const retries = mib >= 64 ? 1 : 3;
  const timeout = mib >= 64 ? 120_000 : 30_000;

  it("with Node's fetch: the replay is answered, the same import; other bytes under the key are 409", async () => {
    const project = await newProject(`fetch-${mib}`);
    const send = (bytes: Buffer) =>
      fetch(`${h.url}/v1/projects/${project}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain', 'idempotency-key': `fetch-${mib}` }, body: bytes as unknown as BodyInit });
    const first = await send(body);
    expect(first.status).toBe(202);
    const id = (await first.json()).data.id;
    for (let i = 0; i < retries; i++) {
      const again = await send(body);
      expect(again.status).toBe(202);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((await again.json()).data.id).toBe(id);
    }
    await expectProblem(await send(other), 409, 'idempotency.key_reused');
    expect((await (await h.call('GET', `/v1/projects/${project}/log-imports`)).json()).data.map((i: { id: string }) => i.id)).toEqual([id]);
  }, timeout);

  it('with node:http on a kept-alive connection: the replays are answered on it', async () => {
    const project = await newProject(`http-${mib}`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const path = `/v1/projects/${project}/log-imports`;
      const first = await nodeHttpUpload(agent, path, `http-${mib}`, body);
      expect(first.status).toBe(202);
      const id = JSON.parse(first.text).data.id;
      for (let i = 0; i < retries; i++) {
        const again = await nodeHttpUpload(agent, path, `http-${mib}`, body);
        expect([again.status, again.headers['idempotent-replayed'], JSON.parse(again.text).data.id]).toEqual([202, 'true', id]);
        expect(again.headers.connection).not.toBe('close');
      }
      const reused = await nodeHttpUpload(agent, path, `http-${mib}`, other);
      expect([reused.status, JSON.parse(reused.text).code]).toEqual([409, 'idempotency.key_reused']);
    } finally {
      agent.destroy();
    }
  }, timeout);

  it('with the SDK: the replay gives the same import; other bytes under the key throw the conflict', async () => {
    const project = await newProject(`sdk-${mib}`);
    const client = createClient({ baseUrl: h.url, token: h.token });
    const first = await client.logs.imports.create({ project, file: new Uint8Array(body), content_type: 'text/plain' }, { idempotencyKey: `sdk-${mib}` });
    const again = await client.logs.imports.create({ project, file: new Uint8Array(body), content_type: 'text/plain' }, { idempotencyKey: `sdk-${mib}` });
    expect(again.id).toBe(first.id);
    const refused = await client.logs.imports.create({ project, file: new Uint8Array(other), content_type: 'text/plain' }, { idempotencyKey: `sdk-${mib}` }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SiteAuditError);
    expect((refused as SiteAuditError).code).toBe('idempotency.key_reused');
  }, timeout);
});

describe('one file, one count', () => {
  it('the same bytes uploaded again to a project (another key, or none) are 409 log_import.duplicate naming the first import', async () => {
    const project = await newProject('duplicate');
    const body = logBody(64 * 1024, 'duplicate');
    const send = (key?: string) =>
      fetch(`${h.url}/v1/projects/${project}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain', ...(key ? { 'idempotency-key': key } : {}) }, body: body as unknown as BodyInit });
    const first = await send('dup-1');
    expect(first.status).toBe(202);
    const id = (await first.json()).data.id;
    for (const key of ['dup-2', undefined]) {
      const problem = await expectProblem(await send(key), 409, 'log_import.duplicate');
      expect(problem.detail).toContain(id);
    }
    // Another project may hold the same file.
    const elsewhere = await newProject('duplicate-elsewhere');
    const res = await fetch(`${h.url}/v1/projects/${elsewhere}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: body as unknown as BodyInit });
    expect(res.status).toBe(202);
  });

  it('DELETE of one import removes its contribution from every read and the pillar, and the same file may then come again', async () => {
    const project = await newProject('delete-one');
    const today = new Date().getUTCDate();
    const bots = (path: string, n: number) => Array.from({ length: n }, () => accessLine('66.249.66.1', today, path, 200, USER_AGENTS.googlebot).replace('Mar/2026', monthYear())).join('\n');
    const send = (text: string) => fetch(`${h.url}/v1/projects/${project}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: text });
    const a = (await (await send(bots('/shared', 3))).json()).data.id;
    const b = (await (await send(bots('/shared', 2))).json()).data.id;
    // Its own imports only: the 64 MiB ones of the tests above may still be parsing.
    for (const id of [a, b]) {
      for (let i = 0; i < 600 && (await (await h.call('GET', `/v1/projects/${project}/log-imports/${id}`)).json()).data.status !== 'completed'; i++) await new Promise((r) => setTimeout(r, 100));
    }
    const sharedHits = async () => ((await (await h.call('GET', `/v1/projects/${project}/logs/urls`)).json()).data as { path: string; hits: number }[]).filter((u) => u.path === '/shared').reduce((n, u) => n + u.hits, 0);
    const dayHits = async () => ((await (await h.call('GET', `/v1/projects/${project}/logs/days`)).json()).data as { hits: number; family: string }[]).filter((d) => d.family !== 'human').reduce((n, d) => n + d.hits, 0);
    const insightHits = async () => (await (await h.call('GET', `/v1/projects/${project}/logs/insights`)).json()).data.hits;
    const pillar = async () => ((await (await h.call('GET', `/v1/projects/${project}/scorecard`)).json()).data.pillars as { key: string; blocked_reason: string | null; status: string }[]).find((p) => p.key === 'logs');
    expect([await sharedHits(), await dayHits()]).toEqual([5, 5]);
    const before = await insightHits();

    expect((await h.call('DELETE', `/v1/projects/${project}/log-imports/${a}`)).status).toBe(204);
    expect((await h.call('GET', `/v1/projects/${project}/log-imports/${a}`)).status).toBe(404);
    expect([await sharedHits(), await dayHits()]).toEqual([2, 2]);
    expect(await insightHits()).not.toEqual(before);
    expect((await pillar())?.status).toBe('measured');

    expect((await h.call('DELETE', `/v1/projects/${project}/log-imports/${b}`)).status).toBe(204);
    expect([await sharedHits(), await dayHits()]).toEqual([0, 0]);
    expect((await pillar())?.blocked_reason).toBe('no_logs');
    expect((await h.call('DELETE', `/v1/projects/${project}/log-imports/${b}`)).status).toBe(404);
    // Its digest went with it: the first file is welcome again.
    expect((await send(bots('/shared', 3))).status).toBe(202);
  }, 90_000);
});

/** The current month as a Combined log writes it (`Nov/2026`), so the pillar's 30-day window holds the lines. */
function monthYear(): string {
  const now = new Date();
  return `${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][now.getUTCMonth()]}/${now.getUTCFullYear()}`;
}

describe('an upload refused before its body is read', () => {
  /** A request on `agent`: status, body, and whether it went on a socket an earlier request had used. */
  // A team of its own: the uploads above spent the first token's write budget (429).
  let token = '';
  function send(agent: http.Agent, method: string, path: string, headers: http.OutgoingHttpHeaders, body?: Buffer): Promise<{ status: number; text: string; reused: boolean }> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${h.url}${path}`, { method, agent, headers: { authorization: `Bearer ${token}`, ...headers } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text, reused: req.reusedSocket }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('keeps the kept-alive connection for the next request when at most 1 MiB is left unread (415, 404)', async () => {
    token = await h.tokenFor({ team: 'refusals' });
    const created = await fetch(`${h.url}/v1/projects`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://example.com/', name: 'Refused uploads' }) });
    expect(created.status).toBe(201);
    const project = (await created.json()).data.id as string;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const body = logBody(512 * 1024, 'refused');
      const first = await send(agent, 'GET', `/v1/projects/${project}`, {});
      expect(first.status).toBe(200);
      // 415 is answered before a byte of the body is read; the server reads the rest away so the
      // connection stays usable (closing with unread bytes reset the client's next request).
      const refused = await send(agent, 'POST', `/v1/projects/${project}/log-imports`, { 'content-type': 'application/json', 'content-length': body.length }, body);
      expect(refused.status).toBe(415);
      expect(refused.reused).toBe(true);
      const missing = await send(agent, 'POST', '/v1/projects/00000000-0000-4000-8000-000000000000/log-imports', { 'content-type': 'text/plain', 'content-length': body.length }, body);
      expect(missing.status).toBe(404);
      expect(missing.reused).toBe(true);
      const after = await send(agent, 'GET', `/v1/projects/${project}`, {});
      expect(after.status).toBe(200);
      expect(after.reused).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});
