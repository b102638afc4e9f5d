/**
 * Hand-picked hostile input, run against the server (hostile-input.server.test.ts, both
 * databases) and the mock (hostile-input.mock.test.ts): field names that are Object.prototype
 * members, NUL characters, query integers that are not plain decimal. Each is refused like any
 * other invalid field, with the catalogue's 422 naming it, and stores nothing.
 */
import { describe, expect, it } from 'vitest';
import { OPERATION_IDS, contract, fillPath, type ContractEntry } from '@siteaudit/schema';
import type { Seeded } from '../support/fuzz-suite.js';

const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', '__defineGetter__'];

export function hostileInputSuite(setup: () => Seeded) {
  let t: Seeded;
  const call = async (method: string, path: string, init: { body?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string> } = {}) => {
    const response = await fetch(`${t.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${t.token}`, 'accept-language': 'en', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.body,
    });
    const text = await response.text();
    return { status: response.status, type: response.headers.get('content-type') ?? '', body: text ? JSON.parse(text) : null };
  };
  /** A 422 naming exactly these fields, as own keys of `errors`. */
  const expectFields = (answer: Awaited<ReturnType<typeof call>>, fields: string[]) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    expect(answer.type).toMatch(/^application\/problem\+json/);
    expect(answer.body.code).toBe('validation_failed');
    expect(Object.keys(answer.body.errors).sort()).toEqual([...fields].sort());
  };
  const projectCount = async () => (await call('GET', '/v1/projects?limit=100')).body.data.length as number;

  describe('hostile input', () => {
    it.each(PROTOTYPE_NAMES)('refuses a query field named %s like any unknown field', async (name) => {
      t = setup();
      const answer = await call('GET', `/v1/me?${encodeURIComponent(name)}=1`);
      expectFields(answer, [name]);
      expect(answer.body.errors[name]).toEqual([{ code: 'unknown_field', message: 'Unknown field' }]);
    });

    it('refuses prototype-named query fields on every operation', async () => {
      // A log import's id: any well-formed one (the query is refused before it is looked up).
      const values: Record<string, string> = { project: t.values.project, campaign: t.values.campaign, crawl: t.values.crawl, export: t.values.export, webhook: t.values.webhook, import: t.values.project };
      for (const id of OPERATION_IDS) {
        const op = contract[id] as ContractEntry;
        const answer = await call(op.method, `${fillPath(op.path, values)}?constructor=1&__proto__=x&valueOf=`, { headers: { 'idempotency-key': `hostile-${id}` } });
        expect(answer.status, id).toBe(422);
        // by-url and inlinks also name their missing `url`.
        const required = id === 'getCrawlPageByUrl' || id === 'listCrawlPageInlinks' ? ['url'] : id === 'listLogFindings' ? ['kind'] : [];
        const expected = ['__proto__', 'constructor', 'valueOf', ...required].sort();
        expect(Object.keys(answer.body.errors).sort(), id).toEqual(expected);
      }
    });

    it('refuses a body holding __proto__ and other prototype-named keys, and stores nothing', async () => {
      const before = await projectCount();
      const polluted = await call('POST', '/v1/projects', { body: `{"__proto__":{"locked":true},"url":${JSON.stringify(t.site)}}` });
      expectFields(polluted, ['__proto__']);
      const others = await call('POST', '/v1/projects', { body: JSON.stringify({ url: t.site, constructor: { name: 'x' }, toString: 'x', hasOwnProperty: 1 }) });
      expectFields(others, ['constructor', 'hasOwnProperty', 'toString']);
      expect(await projectCount()).toBe(before);
      // Nothing leaked onto the prototype of the server's or the mock's objects.
      expect(({} as Record<string, unknown>).locked).toBeUndefined();
    });

    it('refuses a NUL character in any string of the body, naming the field', async () => {
      const projects = await projectCount();
      expectFields(await call('POST', '/v1/projects', { body: JSON.stringify({ url: t.site, name: 'a\u0000b' }) }), ['name']);
      expect(await projectCount()).toBe(projects);
      const campaigns = `/v1/projects/${t.values.project}/campaigns`;
      const campaign = { name: 'Nul', start_url: t.site, max_depth: 1, max_urls: 10 };
      expectFields(await call('POST', campaigns, { body: JSON.stringify({ ...campaign, name: 'N\u0000' }) }), ['name']);
      expectFields(await call('POST', campaigns, { body: JSON.stringify({ ...campaign, include_patterns: '/blog\u0000' }) }), ['include_patterns']);
      expectFields(await call('PATCH', `/v1/campaigns/${t.values.campaign}`, { body: JSON.stringify({ issue_exclusion_patterns: 're:a\u0000' }) }), ['issue_exclusion_patterns']);
      expectFields(
        await call('POST', `/v1/projects/${t.values.project}/tracked-keywords`, { body: JSON.stringify({ keywords: ['fine', 'bad\u0000'] }), headers: { 'idempotency-key': 'nul-keyword' } }),
        ['keywords.1'],
      );
      const webhook = `/v1/webhooks/${t.values.webhook}`;
      const before = (await call('GET', webhook)).body.data.description;
      expectFields(await call('PATCH', webhook, { body: JSON.stringify({ description: '\u0000' }) }), ['description']);
      expect((await call('GET', webhook)).body.data.description).toBe(before);
    });

    it('refuses a body that is no UTF-8 with 400, a lone surrogate with 422 on its field, and stores nothing', async () => {
      const before = await projectCount();
      // "café" written in Latin-1: é is the byte 0xE9, no UTF-8.
      const latin1 = Buffer.concat([Buffer.from(`{"url":${JSON.stringify(t.site)},"name":"caf`), Buffer.from([0xe9]), Buffer.from('"}')]);
      const answer = await call('POST', '/v1/projects', { body: new Uint8Array(latin1) });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('request.malformed_json');
      expectFields(await call('POST', '/v1/projects', { body: `{"url":${JSON.stringify(t.site)},"name":"a\\ud800b"}` }), ['name']);
      expectFields(await call('POST', '/v1/projects', { body: `{"url":${JSON.stringify(t.site)},"name":"\\udc00"}` }), ['name']);
      expect(await projectCount()).toBe(before);
      // A surrogate pair is one character like any other, stored and answered as sent.
      const rocket = await call('POST', '/v1/projects', { body: `{"url":${JSON.stringify(t.site)},"name":"launch \\ud83d\\ude80"}` });
      expect(rocket.status).toBe(201);
      expect(rocket.body.data.name).toBe('launch \u{1F680}');
      expect((await call('GET', `/v1/projects/${rocket.body.data.id}`)).body.data.name).toBe('launch \u{1F680}');
      expect((await call('DELETE', `/v1/projects/${rocket.body.data.id}`)).status).toBe(204);
    });

    it('names at most 100 fields of a body of 60,000 unknown keys', async () => {
      const body = JSON.stringify(Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, 1])));
      const answer = await call('POST', '/v1/projects', { body });
      expect(answer.status).toBe(422);
      expect(Object.keys(answer.body.errors)).toHaveLength(100);
      expect(answer.body.errors.k0).toEqual([{ code: 'unknown_field', message: 'Unknown field' }]);
    });

    it('refuses a body nested half a million arrays deep with a 422 on body, not a 500', async () => {
      const before = await projectCount();
      const depth = 400_000; // under the 1 MB body limit
      expectFields(await call('POST', '/v1/projects', { body: '['.repeat(depth) + ']'.repeat(depth) }), ['body']);
      // The same depth under a field: reported on that field.
      const nested = await call('POST', '/v1/projects', { body: `{"url":${JSON.stringify(t.site)},"name":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}` });
      expectFields(nested, ['name']);
      expect(await projectCount()).toBe(before);
    });

    it('refuses a NUL character in the query, naming the filter', async () => {
      const issues = `/v1/crawls/${t.values.crawl}/issues`;
      expectFields(await call('GET', `${issues}?category=a%00b`), ['category']);
      expectFields(await call('GET', `${issues}?name=%00`), ['name']);
      expectFields(await call('GET', `/v1/crawls/${t.values.crawl}/pages/by-url?url=${encodeURIComponent(`${t.site}\u0000`)}`), ['url']);
      expect((await call('GET', `${issues}?category=links`)).status).toBe(200);
    });

    it.each(['0x10', '1e1', '%2016', '%2B16', '16.0', '', '-1', '0', '101', '99999999999999999999'])('refuses limit=%s: decimal digits from 1 to 100 only', async (limit) => {
      expectFields(await call('GET', `/v1/projects?limit=${limit}`), ['limit']);
    });

    it('accepts a decimal limit', async () => {
      const answer = await call('GET', '/v1/projects?limit=16');
      expect(answer.status).toBe(200);
      expect(answer.body.meta.limit).toBe(16);
    });
  });
}
