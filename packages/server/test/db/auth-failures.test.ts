/**
 * Failed authentications (docs/decisions/rate-limits.md, "Failed authentications"): an unknown
 * token is remembered for a while instead of costing a query each time; a client address that
 * fails too often this minute gets 429 `rate_limited` with Retry-After instead of 401, while valid
 * tokens from it are still served; X-Forwarded-For counts only under the embedding app's
 * `trust proxy`; a removed member is still refused at once.
 */
import { request as httpRequest, type Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_FAILURES_PER_MINUTE } from '@siteaudit/schema/rules';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { expectProblem, manualClock } from '../../../../tests/support/http.js';

const LIMIT = DEFAULT_AUTH_FAILURES_PER_MINUTE;
const time = manualClock('2026-05-04T09:00:10.000Z');
let h: Harness;
let forged = 0;
/** A well-formed token no one was given. */
const unknownToken = () => `sa_${String(++forged).padStart(40, 'x')}`;

beforeAll(async () => {
  // The token lookups are counted on `server.knex`: on SQLite, the in-memory store, whose one
  // connection also reads (an SQLite file reads on connections of its own, store/database.ts).
  h = await startHarness({ clock: time.clock }, { sqliteFile: false });
});
afterAll(() => h.close());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** GET /v1/me from a chosen local address (Linux routes all of 127/8 to loopback). */
function me(base: string, token: string, from = '127.0.0.1', headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/v1/me`, { localAddress: from, headers: { authorization: `Bearer ${token}`, ...headers } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Starts each test in a fresh minute: the counts of earlier tests are gone. */
function nextMinute(): void {
  time.set(new Date(Math.floor(time.now().getTime() / 60_000) * 60_000 + 60_000 + 10_000));
}

describe('unknown tokens', () => {
  it('cost one store read, not one per request', async () => {
    nextMinute();
    const token = unknownToken();
    const reads: string[] = [];
    const listen = (query: { sql: string }) => {
      if (/token_hash/.test(query.sql)) reads.push(query.sql);
    };
    h.knex.on('query', listen);
    try {
      for (let i = 0; i < 5; i++) expect((await me(h.url, token)).status).toBe(401);
    } finally {
      h.knex.off('query', listen);
    }
    expect(reads).toHaveLength(1);
  });

  it('still refuses a removed member at once, and serves a new token at once', async () => {
    nextMinute();
    await h.server.admin.addMember({ team: 'acme', email: 'leaver@acme.test', name: 'Leaver', role: 'member' });
    const { token } = await h.server.admin.createToken({ team: 'acme', member: 'leaver@acme.test', name: 'x', scopes: ['projects:read'] });
    expect((await me(h.url, token)).status).toBe(200);
    await h.server.admin.removeMember({ team: 'acme', email: 'leaver@acme.test' });
    expect((await me(h.url, token)).status).toBe(401);
    await h.server.admin.addMember({ team: 'acme', email: 'leaver@acme.test', name: 'Back', role: 'member' });
    const again = await h.server.admin.createToken({ team: 'acme', member: 'leaver@acme.test', name: 'y', scopes: ['projects:read'] });
    expect((await me(h.url, again.token)).status).toBe(200);
  });
});

describe('an address failing too often', () => {
  it(`answers 429 rate_limited with Retry-After after ${LIMIT} failures in a minute, until the minute ends`, async () => {
    nextMinute();
    for (let i = 0; i < LIMIT; i++) expect((await me(h.url, unknownToken())).status).toBe(401);
    time.advance(20_000); // 30 s into the minute
    const refused = await me(h.url, unknownToken());
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: 'rate_limited', status: 429, window: 'minute', retry_after: 30, upgrade_to: null });
    expect(refused.headers['retry-after']).toBe('30');
    // No header at all, or a malformed one, fails the same way.
    expect((await me(h.url, 'not-a-token')).status).toBe(429);

    // A valid token from the same address is served; other addresses are not affected.
    expect((await me(h.url, h.token)).status).toBe(200);
    expect((await me(h.url, unknownToken(), '127.0.0.2')).status).toBe(401);

    time.advance(30_000);
    await expectProblem(await h.call('GET', '/v1/me', { token: unknownToken() }), 401, 'unauthenticated');
  });

  it('ignores X-Forwarded-For unless the embedding app trusts its proxy', async () => {
    nextMinute();
    for (let i = 0; i < LIMIT; i++) await me(h.url, unknownToken(), '127.0.0.3', { 'x-forwarded-for': `203.0.113.${i}` });
    expect((await me(h.url, unknownToken(), '127.0.0.3', { 'x-forwarded-for': '203.0.113.200' })).status).toBe(429);
  });
});

describe('embedded behind a trusted proxy', () => {
  let host: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.set('trust proxy', 'loopback');
    app.use(h.server.app);
    host = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(host.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

  it('counts each forwarded client on its own', async () => {
    nextMinute();
    for (let i = 0; i < LIMIT; i++) expect((await me(base, unknownToken(), '127.0.0.4', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(401);
    expect((await me(base, unknownToken(), '127.0.0.4', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(429);
    expect((await me(base, unknownToken(), '127.0.0.4', { 'x-forwarded-for': '198.51.100.8' })).status).toBe(401);
  });
});

describe('served by listen() with trust proxy set on server.app', () => {
  it('counts each forwarded client on its own', async () => {
    const proxied = await startHarness({ clock: time.clock });
    try {
      proxied.server.app.set('trust proxy', 'loopback');
      nextMinute();
      for (let i = 0; i < LIMIT; i++) expect((await me(proxied.url, unknownToken(), '127.0.0.5', { 'x-forwarded-for': '198.51.100.9' })).status).toBe(401);
      expect((await me(proxied.url, unknownToken(), '127.0.0.5', { 'x-forwarded-for': '198.51.100.9' })).status).toBe(429);
      expect((await me(proxied.url, unknownToken(), '127.0.0.5', { 'x-forwarded-for': '198.51.100.10' })).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});

describe('the option', () => {
  it('sets the limit, and null removes it', async () => {
    const strict = await startHarness({ authFailuresPerMinute: 2, clock: time.clock });
    const open = await startHarness({ authFailuresPerMinute: null, clock: time.clock });
    try {
      const strictAnswers = [];
      const openAnswers = [];
      for (let i = 0; i < 3; i++) strictAnswers.push((await me(strict.url, unknownToken(), '127.0.0.5')).status);
      for (let i = 0; i < LIMIT + 5; i++) openAnswers.push((await me(open.url, unknownToken(), '127.0.0.5')).status);
      expect(strictAnswers).toEqual([401, 401, 429]);
      expect(new Set(openAnswers)).toEqual(new Set([401]));
    } finally {
      await strict.close();
      await open.close();
    }
  });
});
