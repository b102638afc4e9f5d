import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  GoneError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  SiteAuditError,
  ValidationError,
  createClient,
} from '../src/index.js';
import { fakeFetch, ids, problem } from './fake-fetch.js';

const CLASSES = [
  AuthenticationError,
  PermissionError,
  NotFoundError,
  ConflictError,
  GoneError,
  ValidationError,
  RateLimitError,
  ServerError,
  ConnectionError,
];

async function failWith(reply: Response | Error) {
  const client = createClient({ baseUrl: 'https://api.test', token: 't', fetch: fakeFetch(reply).fetch, retries: 0 });
  return client.projects.get({ project: ids.project }).then(
    () => expect.unreachable('the call should fail'),
    (e: unknown) => e as SiteAuditError,
  );
}

describe('error classes', () => {
  it.each([
    [401, 'unauthenticated', AuthenticationError],
    [403, 'project.locked', PermissionError],
    [404, 'not_found', NotFoundError],
    [409, 'crawl.already_running', ConflictError],
    [410, 'export.expired', GoneError],
    [400, 'pagination.invalid_cursor', ValidationError],
    [422, 'validation_failed', ValidationError],
    [429, 'rate_limited', RateLimitError],
    [500, 'internal_error', ServerError],
    [503, 'service_unavailable', ServerError],
  ] as const)('%i %s → %o', async (status, code, Class) => {
    const error = await failWith(
      problem(status, code, { detail: 'More about it', request_id: 'req_body' }, { 'x-request-id': 'req_header' }),
    );
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(SiteAuditError);
    expect(error).toBeInstanceOf(Error);
    for (const Other of CLASSES) if (Other !== Class) expect(error).not.toBeInstanceOf(Other);
    expect(error).toMatchObject({ status, code, title: `Title of ${code}`, detail: 'More about it', requestId: 'req_header', name: Class.type });
    expect(error.problem).toMatchObject({ status, code, request_id: 'req_body' });
    expect(error.headers?.get('content-type')).toBe('application/problem+json');
    expect(error.message).toBe(`Title of ${code}: More about it (${code}, HTTP ${status}, request req_header)`);
  });

  it('take the request id from the problem when the header is absent', async () => {
    const error = await failWith(problem(404, 'not_found', { request_id: 'req_body' }));
    expect(error.requestId).toBe('req_body');
  });

  it('PermissionError carries requiredScopes and upgradeTo', async () => {
    const scope = await failWith(problem(403, 'token.missing_scope', { required_scopes: ['projects:read'] }));
    expect(scope).toMatchObject({ requiredScopes: ['projects:read'], upgradeTo: null });
    const plan = await failWith(problem(403, 'api.write_not_in_plan', { upgrade_to: 'pro' }));
    expect(plan).toMatchObject({ requiredScopes: [], upgradeTo: 'pro' });
  });

  it('ValidationError carries the messages by field', async () => {
    const errors = { 'schedule.time': [{ code: 'invalid_format', message: 'Expected HH:MM (UTC)' }] };
    const error = await failWith(problem(422, 'validation_failed', { errors }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual(errors);
    expect(((await failWith(problem(400, 'request.malformed_json'))) as ValidationError).errors).toEqual({});
  });

  it('RateLimitError carries retryAfter (header first), window and upgradeTo', async () => {
    const error = await failWith(problem(429, 'rate_limited', { window: 'day', retry_after: 100, upgrade_to: 'agency' }, { 'retry-after': '3600' }));
    expect(error).toMatchObject({ retryAfter: 3600, window: 'day', upgradeTo: 'agency' });
    const bodyOnly = await failWith(problem(429, 'rate_limited', { window: 'minute', retry_after: 12 }));
    expect(bodyOnly).toMatchObject({ retryAfter: 12, window: 'minute' });
  });

  it('an answer that is not a problem keeps its status', async () => {
    const error = await failWith(new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, code: 'http_502', title: 'Bad Gateway', problem: undefined });
  });

  it('a status without a family of its own is a plain SiteAuditError', async () => {
    const error = await failWith(problem(415, 'request.unsupported_media_type'));
    expect(error.constructor).toBe(SiteAuditError);
    expect(error).toMatchObject({ status: 415, code: 'request.unsupported_media_type' });
  });

  it('a network failure is a ConnectionError with its cause', async () => {
    const cause = new TypeError('getaddrinfo ENOTFOUND api.test');
    const error = await failWith(cause);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toBeInstanceOf(SiteAuditError);
    expect(error).toMatchObject({ status: 0, code: 'connection_error', requestId: undefined });
    expect(error.cause).toBe(cause);
  });

  it('a ConnectionError says which URL it could not reach, and why (a real closed port)', async () => {
    const listener = createServer();
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    await new Promise((resolve) => listener.close(resolve)); // nothing listens there now
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: 't', retries: 0 });
    const error = (await client.projects.list().then(
      () => expect.unreachable('the call should fail'),
      (e: unknown) => e,
    )) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.url).toBe(`http://127.0.0.1:${port}/v1/projects`);
    expect(error.message).toContain(`Could not reach the Site Audit API at http://127.0.0.1:${port}/v1/projects`);
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('instanceof across copies of the package', () => {
  it('recognises errors created by another copy of the module (as ESM and CJS builds are)', async () => {
    vi.resetModules();
    // A query string makes Vite load a second, distinct instance of the module.
    const other = (await import('../src/errors.js?copy=2' as string)) as typeof import('../src/errors.js');
    expect(other.NotFoundError).not.toBe(NotFoundError);
    const foreign = new other.NotFoundError({ status: 404, code: 'not_found', title: 'Not found' });
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(foreign).toBeInstanceOf(SiteAuditError);
    expect(foreign).not.toBeInstanceOf(PermissionError);
    const local = new RateLimitError({ status: 429, code: 'rate_limited', title: 'Slow down' });
    expect(local).toBeInstanceOf(other.RateLimitError);
    expect(local).toBeInstanceOf(other.SiteAuditError);
    expect(local).not.toBeInstanceOf(other.ServerError);
    expect({ code: 'not_found', status: 404 }).not.toBeInstanceOf(SiteAuditError);
    expect(null).not.toBeInstanceOf(SiteAuditError);
  });

  const cjs = fileURLToPath(new URL('../dist/index.cjs', import.meta.url));
  it.skipIf(!existsSync(cjs))('recognises errors of the built CJS package (after npm run build)', () => {
    const built = createRequire(import.meta.url)(cjs) as typeof import('../src/index.js');
    const fromCjs = new built.PermissionError({ status: 403, code: 'token.missing_scope', title: 'Scope', problem: { required_scopes: ['a:b'] } as never });
    expect(fromCjs).toBeInstanceOf(PermissionError);
    expect(fromCjs).toBeInstanceOf(SiteAuditError);
    expect(new ConflictError({ status: 409, code: 'conflict', title: 'Conflict' })).toBeInstanceOf(built.SiteAuditError);
  });
});
