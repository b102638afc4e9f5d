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

describe("days in the line's own offset", () => {
  it('counts a line on the date the server wrote (+13:00, -08:00, +00:00), not the UTC date', async () => {
    const projectId = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://example.com/', name: 'Zones' } })).json()).data.id;
    const human = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';
    const bot = 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)';
    const log = [
      // Auckland, just after midnight on the 28th: 27 Nov 11:30 UTC.
      `192.0.2.1 - - [28/Nov/2026:00:30:00 +1300] "GET /nz HTTP/1.1" 200 10 "-" "${human}"`,
      `192.0.2.1 - - [28/Nov/2026:00:30:00 +1300] "GET /nz HTTP/1.1" 200 10 "-" "${bot}"`,
      // Los Angeles, late on the 27th: 28 Nov 07:30 UTC.
      `192.0.2.2 - - [27/Nov/2026:23:30:00 -0800] "GET /la HTTP/1.1" 404 10 "-" "${human}"`,
      `192.0.2.2 - - [27/Nov/2026:23:30:00 -0800] "GET /la\\x22 HTTP/1.1" 404 10 "-" "${bot}"`,
      // UTC, either side of midnight.
      `192.0.2.3 - - [27/Nov/2026:23:59:59 +0000] "GET /utc HTTP/1.1" 500 10 "-" "${human}"`,
      `192.0.2.3 - - [28/Nov/2026:00:00:00 +0000] "GET /utc HTTP/1.1" 500 10 "-" "${human}"`,
      // JSON lines with an ISO 8601 offset.
      JSON.stringify({ time: '2026-11-28T00:15:00+13:00', remote_addr: '192.0.2.4', request: 'GET /json HTTP/1.1', status: 301, http_user_agent: human }),
      JSON.stringify({ time: '2026-11-27T23:45:00-08:00', remote_addr: '192.0.2.4', request: 'GET /json HTTP/1.1', status: 301, http_user_agent: human }),
    ].join('\n');
    const res = await fetch(`${h.url}/v1/projects/${projectId}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: log });
    expect(res.status).toBe(202);
    await h.server.jobs.idle();
    const days = (await (await h.call('GET', `/v1/projects/${projectId}/logs/days?limit=100`)).json()).data as { date: string; family: string; status_class: string; hits: number }[];
    const seen = days.map((d) => `${d.date} ${d.family} ${d.status_class} ${d.hits}`);
    expect(seen).toEqual([
      '2026-11-28 human 2xx 1',
      '2026-11-28 human 3xx 1',
      '2026-11-28 human 5xx 1',
      '2026-11-28 seo_tool 2xx 1',
      '2026-11-27 human 3xx 1',
      '2026-11-27 human 4xx 1',
      '2026-11-27 human 5xx 1',
      '2026-11-27 seo_tool 4xx 1',
    ]);
    // The period stays in instants (UTC): from 27 Nov 11:15 UTC (00:15 +13:00) to 08:00 UTC on the 28th.
    const imp = (await (await h.call('GET', `/v1/projects/${projectId}/log-imports`)).json()).data[0];
    expect(imp.period).toEqual({ from: '2026-11-27T11:15:00.000Z', to: '2026-11-28T07:45:00.000Z' });
  });
});
