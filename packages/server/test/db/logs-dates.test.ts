/**
 * Impossible dates (docs/decisions/logs.md, "Parsing"): 31 February or 25:61 is a refused line,
 * never rolled over into another day; in Combined lines and in JSON lines alike. Read over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ logs: { resolver: null } });
});
afterAll(async () => {
  await h?.close();
});

describe('impossible dates', () => {
  it('refuses 31 Feb and 25:61 as invalid lines, and counts no day for them', async () => {
    const projectId = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://example.com/', name: 'Dates' } })).json()).data.id;
    const ua = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';
    const log = [
      `192.0.2.1 - - [28/Feb/2026:10:00:00 +0000] "GET /ok HTTP/1.1" 200 10 "-" "${ua}"`,
      `192.0.2.1 - - [31/Feb/2026:10:00:00 +0000] "GET /feb HTTP/1.1" 200 10 "-" "${ua}"`,
      `192.0.2.1 - - [28/Feb/2026:25:61:00 +0000] "GET /late HTTP/1.1" 200 10 "-" "${ua}"`,
      JSON.stringify({ time: '2026-02-31T10:00:00Z', remote_addr: '192.0.2.1', request: 'GET /json HTTP/1.1', status: 200, http_user_agent: ua }),
    ].join('\n');
    const res = await fetch(`${h.url}/v1/projects/${projectId}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: log });
    expect(res.status).toBe(202);
    const id = (await res.json()).data.id;
    await h.server.jobs.idle();
    const imp = (await (await h.call('GET', `/v1/projects/${projectId}/log-imports/${id}`)).json()).data;
    expect(imp.lines).toEqual({ read: 4, kept: 1, refused: 3 });
    expect(imp.refusals.map((r: { line: number }) => r.line)).toEqual([2, 3, 4]);
    const days = (await (await h.call('GET', `/v1/projects/${projectId}/logs/days?limit=100`)).json()).data;
    expect(days.map((d: { date: string }) => d.date)).toEqual(['2026-02-28']);
  });
});
