/**
 * gzip of JSON answers and of the OpenAPI documents (docs/decisions/compression.md), over HTTP on
 * both databases, read with node:http so that the bytes on the wire are seen as sent (fetch
 * would inflate them out of sight).
 */
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsGzip } from '../../src/http/compression.js';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';

let h: Harness;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${h.url}${path}`, { method, headers: { authorization: `Bearer ${h.token}`, ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  h = await startHarness();
  // A list well over 1 KiB.
  for (let i = 0; i < 12; i++) await h.call('POST', '/v1/projects', { body: { url: `https://site-${i}.example/`, name: `Compressed ${i}` } });
});
afterAll(async () => {
  await h?.close();
});

describe('gzip of answers', () => {
  it('gzips a JSON answer of 1 KiB or more for a caller that accepts gzip: the same JSON, the same ETag, Vary naming Accept-Encoding', async () => {
    const plain = await get('/v1/projects?limit=50');
    const zipped = await get('/v1/projects?limit=50', { 'accept-encoding': 'br;q=1, gzip;q=0.8' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(Number(zipped.headers['content-length'])).toBe(zipped.body.length);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
    expect(gunzipSync(zipped.body).toString()).toBe(plain.body.toString());
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    for (const answer of [plain, zipped]) expect(answer.headers.vary).toBe('Authorization, Accept-Language, Accept-Encoding');
    // The validator holds whatever the encoding: 304, no body.
    const again = await get('/v1/projects?limit=50', { 'accept-encoding': 'gzip', 'if-none-match': String(zipped.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('sends identity to a caller that refuses gzip or names none, for a small answer, and for HEAD', async () => {
    for (const encoding of ['gzip;q=0', 'identity', 'br', '*;q=0', 'gzip;q=0, *']) {
      const answer = await get('/v1/projects?limit=50', { 'accept-encoding': encoding });
      expect(answer.headers['content-encoding'], encoding).toBeUndefined();
      expect(JSON.parse(answer.body.toString()).data.length, encoding).toBe(12);
    }
    const star = await get('/v1/projects?limit=50', { 'accept-encoding': '*' });
    expect(star.headers['content-encoding']).toBe('gzip');
    const small = await get('/v1/me', { 'accept-encoding': 'gzip' });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    const head = await get('/v1/projects?limit=50', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
  });

  it('gzips the OpenAPI documents and a refusal stays readable', async () => {
    for (const path of ['/openapi.json', '/openapi-3.0.json']) {
      const zipped = await get(path, { 'accept-encoding': 'gzip' });
      expect(zipped.headers['content-encoding'], path).toBe('gzip');
      expect(JSON.parse(gunzipSync(zipped.body).toString()).info.title, path).toBe('Site Audit API');
    }
    const refused = await get('/v1/projects/00000000-0000-4000-8000-000000000000', { 'accept-encoding': 'gzip' });
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body.toString()).code).toBe('not_found');
  });

  it('reads Accept-Encoding as RFC 9110 writes it', () => {
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('GZIP')).toBe(true);
    expect(acceptsGzip('deflate, gzip;q=0.5')).toBe(true);
    expect(acceptsGzip('x-gzip')).toBe(true);
    expect(acceptsGzip('gzip; q=0')).toBe(false);
    expect(acceptsGzip('gzip;q=0.000')).toBe(false);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0, *')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
