import { ERRORS, Problem } from '@siteaudit/schema';
import { describe, expect, it } from 'vitest';
import { call, useMock } from './helpers.js';

const mock = useMock();

describe('problem details, validation and languages', () => {
  it('answers RFC 9457 problem+json titled in French by default, with the request id', async () => {
    const res = await call('GET', '/v1/projects');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('content-language')).toBe('fr');
    expect(Problem.parse(res.body)).toMatchObject({
      type: 'https://siteaudit.dev/docs/errors#unauthenticated',
      status: 401,
      code: 'unauthenticated',
      title: ERRORS.unauthenticated.title.fr,
    });
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('follows Accept-Language for titles, never for codes', async () => {
    const res = await call('GET', '/v1/projects', { headers: { 'Accept-Language': 'en-GB,en;q=0.9' } });
    expect(res.headers.get('content-language')).toBe('en');
    expect(res.body).toMatchObject({ code: 'unauthenticated', title: 'Authentication required' });
    const other = await call('GET', '/v1/projects', { headers: { 'Accept-Language': 'de' } });
    expect(other.body.title).toBe(ERRORS.unauthenticated.title.fr);
    // French refused, anything else welcome: English.
    const notFrench = await call('GET', '/v1/projects', { headers: { 'Accept-Language': 'fr;q=0, *' } });
    expect(notFrench.headers.get('content-language')).toBe('en');
    expect(notFrench.body.title).toBe('Authentication required');
  });

  it('answers 422 validation_failed with errors by field path', async () => {
    const res = await call('POST', '/v1/projects', { token: mock.tokens.owner, body: { url: 'ftp://example.org', name: '' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(Object.keys(res.body.errors).sort()).toEqual(['name', 'url']);
    const { projectId } = mock.seed.teamWithProject();
    const nested = await call('POST', `/v1/projects/${projectId}/campaigns`, {
      token: mock.tokens.owner,
      headers: { 'Accept-Language': 'en' },
      body: { name: 'c', start_url: 'https://example.org', max_depth: 2, max_urls: 10, schedule: { frequency: 'daily', time: '25:00' } },
    });
    expect(nested.status).toBe(422);
    expect(nested.body.errors['schedule.time'][0].message).toBe('Expected HH:MM (UTC)');
  });

  it('refuses unknown body fields instead of ignoring them', async () => {
    const res = await call('POST', '/v1/projects', { token: mock.tokens.owner, body: { url: 'https://example.org', colour: 'blue' } });
    expect(res.status).toBe(422);
    expect(res.body.errors.colour).toEqual([{ code: 'unknown_field', message: 'Champ inconnu' }]);
  });

  it('reports a missing body on `body` and a missing field as required', async () => {
    const empty = await call('POST', '/v1/projects', { token: mock.tokens.owner });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.body[0].code).toBe('required');
    const missing = await call('POST', '/v1/projects', { token: mock.tokens.owner, body: {} });
    expect(missing.body.errors.url[0].code).toBe('required');
  });

  it('answers 400 request.malformed_json and 415 for a body that is not JSON', async () => {
    const malformed = await call('POST', '/v1/projects', { token: mock.tokens.owner, rawBody: '{"url": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('request.malformed_json');
    const text = await call('POST', '/v1/projects', { token: mock.tokens.owner, rawBody: 'url=x', headers: { 'Content-Type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.code).toBe('request.unsupported_media_type');
  });

  it('validates the query: limit 1..100, known filters only', async () => {
    for (const query of [{ limit: 0 }, { limit: 101 }, { limit: 'ten' }, { sort: 'name' }]) {
      const res = await call('GET', '/v1/projects', { token: mock.tokens.owner, query });
      expect(res.status, JSON.stringify(query)).toBe(422);
    }
  });
});
