/**
 * Refusals of malformed requests (spec: Errors; docs/decisions/errors.md): 422
 * `validation_failed` with `errors` keyed by field path, unknown fields refused, malformed JSON
 * 400, non-JSON bodies 415, malformed ids 404, unknown routes 404, wrong methods 405 with
 * Allow, bodies over 1 MB 413, and a 500 that never leaks internals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { expectProblem } from '../../../../tests/support/http.js';

let h: Harness;
let projectId: string;
const validCampaign = { name: 'Blog', start_url: 'https://valid.example/blog', max_depth: 3, max_urls: 100 };

beforeAll(async () => {
  h = await startHarness();
  projectId = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://valid.example/' } })).json()).data.id;
});
afterAll(() => h.close());

async function campaignCount(): Promise<number> {
  const [{ count }] = await h.knex('campaigns').where({ project_id: projectId }).count({ count: '*' });
  return Number(count);
}

describe('422 validation_failed', () => {
  it('keys errors by field path, nested fields included', async () => {
    const body = await expectProblem(
      await h.call('POST', `/v1/projects/${projectId}/campaigns`, {
        body: { ...validCampaign, max_depth: 'deep', schedule: { frequency: 'daily', time: '25:00' } },
      }),
      422,
      'validation_failed',
    );
    expect(Object.keys(body.errors).sort()).toEqual(['max_depth', 'schedule.time']);
    for (const list of Object.values(body.errors) as { code: string; message: string }[][]) {
      expect(list.length).toBeGreaterThan(0);
      for (const e of list) expect(e).toEqual({ code: expect.any(String), message: expect.any(String) });
    }
    expect(await campaignCount()).toBe(1);
  });

  it('names each missing required field', async () => {
    const body = await expectProblem(await h.call('POST', `/v1/projects/${projectId}/campaigns`, { body: {} }), 422, 'validation_failed');
    expect(Object.keys(body.errors).sort()).toEqual(['max_depth', 'max_urls', 'name', 'start_url']);
    expect(body.errors.name[0].code).toBe('required');
  });

  it('refuses unknown body fields on the field itself, never ignoring them', async () => {
    const body = await expectProblem(
      await h.call('POST', '/v1/projects', { body: { url: 'https://unknown-field.example/', colour: 'blue' } }),
      422,
      'validation_failed',
    );
    expect(Object.keys(body.errors)).toEqual(['colour']);
    expect(body.errors.colour[0].code).toBe('unknown_field');

    const nested = await expectProblem(
      await h.call('POST', `/v1/projects/${projectId}/campaigns`, { body: { ...validCampaign, schedule: { frequency: 'manual', every: 'hour' } } }),
      422,
      'validation_failed',
    );
    expect(Object.keys(nested.errors)).toEqual(['schedule.every']);

    const patch = await expectProblem(await h.call('PATCH', `/v1/projects/${projectId}`, { body: { owner: 'me' } }), 422, 'validation_failed');
    expect(Object.keys(patch.errors)).toEqual(['owner']);
    const list = await (await h.call('GET', '/v1/projects')).json();
    expect(list.data.map((p: { url: string }) => p.url)).toEqual(['https://valid.example/']);
  });

  it('refuses a URL that is not an absolute http(s) URL', async () => {
    for (const url of ['not a url', 'ftp://files.example/', '/relative', '']) {
      const body = await expectProblem(await h.call('POST', '/v1/projects', { body: { url } }), 422, 'validation_failed');
      expect(Object.keys(body.errors)).toEqual(['url']);
    }
  });

  it('refuses a missing body where one is required', async () => {
    const body = await expectProblem(await h.call('POST', '/v1/projects'), 422, 'validation_failed');
    expect(body.errors).toBeDefined();
  });

  it('checks limit: 0, 101 and abc are refused, 1 and 100 accepted', async () => {
    for (const limit of ['0', '101', 'abc', '-1', '2.5', '']) {
      const body = await expectProblem(await h.call('GET', `/v1/projects?limit=${limit}`), 422, 'validation_failed');
      expect(Object.keys(body.errors)).toEqual(['limit']);
    }
    // Each fails by the rule it breaks, not as text that is no number.
    const codes = async (limit: string) => (await expectProblem(await h.call('GET', `/v1/projects?limit=${limit}`), 422, 'validation_failed')).errors.limit.map((e: { code: string }) => e.code);
    expect(await codes('-1')).toEqual(['too_small']);
    expect(await codes('101')).toEqual(['too_big']);
    expect(await codes('2.5')).toEqual(['invalid_type']);
    expect((await expectProblem(await h.call('GET', '/v1/projects?limit=2.5', { headers: { 'accept-language': 'en' } }), 422, 'validation_failed')).errors.limit[0].message).toMatch(/int/i);
    expect(await codes('16.0')).toEqual(['invalid_type']);
    for (const limit of ['1', '100']) {
      const res = await h.call('GET', `/v1/projects?limit=${limit}`);
      expect(res.status).toBe(200);
      expect((await res.json()).meta.limit).toBe(Number(limit));
    }
  });

  it('refuses unknown query parameters', async () => {
    const body = await expectProblem(await h.call('GET', '/v1/projects?sort=name'), 422, 'validation_failed');
    expect(Object.keys(body.errors)).toEqual(['sort']);
  });
});

describe('malformed requests', () => {
  it('answers malformed JSON with 400 request.malformed_json', async () => {
    for (const raw of ['{"url":', '{url: "x"}', "{'url':'x'}", 'nul']) {
      await expectProblem(
        await h.call('POST', '/v1/projects', { raw, headers: { 'content-type': 'application/json' } }),
        400,
        'request.malformed_json',
      );
    }
  });

  it('answers a body that is not JSON with 415', async () => {
    await expectProblem(
      await h.call('POST', '/v1/projects', { raw: 'url=https://x.example/', headers: { 'content-type': 'text/plain' } }),
      415,
      'request.unsupported_media_type',
    );
    await expectProblem(
      await h.call('POST', '/v1/projects', { raw: 'url=https%3A%2F%2Fx.example%2F', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      'request.unsupported_media_type',
    );
    // JSON with a charset parameter, or a +json media type, is JSON.
    const charset = await h.call('POST', '/v1/projects', {
      raw: JSON.stringify({ url: 'https://charset.example/' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(charset.status).toBe(201);
  });

  it('answers a body over 1 MB with 413 request.too_large', async () => {
    const raw = JSON.stringify({ url: 'https://big.example/', name: 'x'.repeat(1024 * 1024 + 10) });
    const res = await h.call('POST', '/v1/projects', { raw, headers: { 'content-type': 'application/json' } });
    await expectProblem(res, 413, 'request.too_large');
  });

  it('answers a malformed UUID in the path with 404, like a missing resource', async () => {
    for (const path of ['/v1/projects/not-a-uuid', '/v1/projects/123', '/v1/campaigns/zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', '/v1/projects/not-a-uuid/campaigns']) {
      await expectProblem(await h.call('GET', path), 404, 'not_found');
    }
    await expectProblem(await h.call('PATCH', '/v1/projects/nope', { body: { name: 'x' } }), 404, 'not_found');
    await expectProblem(await h.call('DELETE', '/v1/campaigns/nope'), 404, 'not_found');
  });

  it('answers an unknown route with a 404 problem', async () => {
    for (const path of ['/v1/nothing-here', '/v2/projects', '/', '/v1/projects/00000000-0000-4000-8000-000000000000/unknown']) {
      await expectProblem(await h.call('GET', path), 404, 'not_found');
    }
  });

  it('routes a trailing slash and a percent-encoded id like the plain path; a malformed escape answers 404', async () => {
    const plain = await h.call('GET', `/v1/projects/${projectId}`);
    expect(plain.status).toBe(200);
    const body = await plain.json();
    const slash = await h.call('GET', `/v1/projects/${projectId}/`);
    expect(slash.status).toBe(200);
    expect(await slash.json()).toEqual(body);
    const encoded = await h.call('GET', `/v1/projects/${projectId.replace(/-/g, '%2D')}`);
    expect(encoded.status).toBe(200);
    expect((await encoded.json()).data.id).toBe(projectId);
    await expectProblem(await h.call('GET', '/v1/projects/%E0%A4%A'), 404, 'not_found');
  });

  it('answers HEAD as GET, headers and no body', async () => {
    const get = await h.call('GET', `/v1/projects/${projectId}`);
    const head = await h.call('HEAD', `/v1/projects/${projectId}`);
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(head.headers.get('x-request-cost')).toBe('1');
    expect(await head.text()).toBe('');
  });

  it('answers a wrong method with 405 and the Allow header', async () => {
    const res = await h.call('PUT', `/v1/projects/${projectId}`, { body: { name: 'x' } });
    const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim()).sort();
    await expectProblem(res, 405, 'method_not_allowed');
    expect(allow).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH']);

    const collection = await h.call('DELETE', '/v1/projects');
    const collectionAllow = (collection.headers.get('allow') ?? '').split(',').map((m) => m.trim()).sort();
    await expectProblem(collection, 405, 'method_not_allowed');
    expect(collectionAllow).toEqual(['GET', 'HEAD', 'POST']);

    const me = await h.call('POST', '/v1/me', { body: {} });
    expect(me.headers.get('allow')).toBe('GET, HEAD');
    await expectProblem(me, 405, 'method_not_allowed');
  });

  it('answers 404 to a path in another case, never a 405 for a method it routes', async () => {
    for (const path of ['/V1/projects', '/V1/me', `/V1/projects/${projectId}`, '/v1/Projects']) {
      const res = await h.call('GET', path);
      await expectProblem(res, 404, 'not_found');
      expect(res.headers.get('allow')).toBeNull();
    }
  });
});

describe('500', () => {
  it('answers internal_error without a stack trace, SQL or the error message', async () => {
    const logged: unknown[] = [];
    const broken = await startHarness({ logger: { error: (_message, error) => logged.push(error) } });
    try {
      await broken.knex.schema.renameTable('projects', 'projects_gone');
      const res = await broken.call('GET', '/v1/projects');
      const text = await res.text();
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const body = JSON.parse(text);
      expect(body.code).toBe('internal_error');
      expect(Object.keys(body).sort()).toEqual(['code', 'request_id', 'status', 'title', 'type']);
      expect(body.request_id).toBe(res.headers.get('x-request-id'));
      for (const leak of ['stack', '    at ', '.ts:', 'select', 'projects', 'SQLITE', 'relation', 'does not exist', 'no such table']) {
        expect(text.toLowerCase()).not.toContain(leak.toLowerCase());
      }
      // The operator still learns what happened.
      expect(logged.length).toBeGreaterThan(0);
    } finally {
      await broken.knex.schema.renameTable('projects_gone', 'projects').catch(() => undefined);
      await broken.close();
    }
  });
});

describe('request ids', () => {
  it('puts a request id on every answer, and in problem bodies', async () => {
    const ok = await h.call('GET', '/v1/projects');
    const refused = await h.call('GET', '/v1/projects', { token: null });
    const a = ok.headers.get('x-request-id');
    const b = refused.headers.get('x-request-id');
    expect(a).toBeTruthy();
    expect(b).toBeTruthy();
    expect(a).not.toBe(b);
    expect((await refused.json()).request_id).toBe(b);
  });
});
