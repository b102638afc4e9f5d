import { describe, expect, it } from 'vitest';
import { HEADERS } from '../../src/openapi-responses.js';
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS, isCrossOriginPath, isPreflight, PREFLIGHT_HEADERS } from '../../src/rules/cors.js';

describe('CORS (docs/decisions/cors.md)', () => {
  it('exposes every documented answer header a page could not read otherwise, and only those', () => {
    const exposed = CORS_EXPOSE_HEADERS.split(', ');
    expect(exposed).toEqual(expect.arrayContaining(['X-Request-Id', 'ETag', 'Retry-After', 'Location', 'Content-Disposition', 'Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy', 'X-Request-Cost', 'WWW-Authenticate', 'Allow']));
    // Safelisted by the Fetch standard: readable anyway.
    expect(exposed).not.toContain('Content-Language');
    expect(exposed).not.toContain('Cache-Control');
    expect(exposed.length).toBe(Object.keys(HEADERS).length - 2);
  });

  it('allows the request headers the SDK sends', () => {
    const allowed = CORS_ALLOW_HEADERS.toLowerCase().split(', ');
    for (const header of ['authorization', 'content-type', 'content-encoding', 'accept-language', 'idempotency-key', 'if-none-match']) expect(allowed).toContain(header);
    expect(PREFLIGHT_HEADERS['Access-Control-Allow-Origin']).toBe('*');
  });

  it('tells a preflight from a plain OPTIONS, and the API’s paths from an embedding application’s', () => {
    expect(isPreflight('OPTIONS', 'POST')).toBe(true);
    expect(isPreflight('OPTIONS', null)).toBe(false);
    expect(isPreflight('OPTIONS', '')).toBe(false);
    expect(isPreflight('GET', 'GET')).toBe(false);
    for (const path of ['/v1', '/v1/projects', '/openapi.json', '/openapi-3.0.json']) expect(isCrossOriginPath(path), path).toBe(true);
    for (const path of ['/', '/v10/x', '/docs', '/admin', '/metrics']) expect(isCrossOriginPath(path), path).toBe(false);
  });
});
