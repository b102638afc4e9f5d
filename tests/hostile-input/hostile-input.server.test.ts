import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seed, type Seeded } from '../support/fuzz-suite.js';
import { serverTarget } from '../support/fuzz-targets.js';
import { hostileInputSuite } from './suite.js';

let seeded: Seeded;
let close: () => Promise<void>;

beforeAll(async () => {
  const server = await serverTarget();
  close = server.close;
  seeded = await seed(server.target);
}, 180_000);
afterAll(() => close());

hostileInputSuite(() => seeded);

/** What node:http answers before express: now the catalogue's problem, not a bare status line. */
it('answers a header block of 20 KB with 431 request.headers_too_large as problem+json', async () => {
  const response = await fetch(`${seeded.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${seeded.token}`, 'x-padding': 'a'.repeat(20_000) } });
  expect(response.status).toBe(431);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(await response.json()).toMatchObject({ status: 431, code: 'request.headers_too_large', title: 'En-têtes de requête trop volumineux' });
});

it('answers a request line it cannot parse with 400 request.malformed as problem+json', async () => {
  const { port, hostname } = new URL(seeded.baseUrl);
  const raw = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write('GET /v1/me HTTP/9.x\r\nHost: x\r\n\r\n'));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  const [head, body] = raw.split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 400 /);
  expect(head.toLowerCase()).toContain('content-type: application/problem+json');
  expect(JSON.parse(body)).toMatchObject({ status: 400, code: 'request.malformed' });
});

/** A raw HTTP/1.1 exchange, for request targets fetch() never sends. */
function rawExchange(request: string): Promise<{ head: string; body: string }> {
  const { port, hostname } = new URL(seeded.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => {
      const at = text.indexOf('\r\n\r\n');
      resolve({ head: text.slice(0, at), body: text.slice(at + 4) });
    });
    socket.on('error', reject);
  });
}

it('routes an absolute-form request target like its path, query included', async () => {
  const { host } = new URL(seeded.baseUrl);
  const answer = await rawExchange(
    `GET http://${host}/v1/projects?limit=1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${seeded.token}\r\nConnection: close\r\n\r\n`,
  );
  expect(answer.head).toMatch(/^HTTP\/1\.1 200 /);
  const body = JSON.parse(answer.body);
  expect(body.data).toHaveLength(1);
  const unknown = await rawExchange(`GET http://${host}/v1/projects?limit=1&bogus=1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${seeded.token}\r\nConnection: close\r\n\r\n`);
  expect(unknown.head).toMatch(/^HTTP\/1\.1 422 /);
});

it('ignores a fragment sent in the request target, as a browser would have dropped it', async () => {
  const { host } = new URL(seeded.baseUrl);
  for (const target of ['/v1/projects?limit=1#top', `http://${host}/v1/projects?limit=1#top`]) {
    const answer = await rawExchange(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${seeded.token}\r\nConnection: close\r\n\r\n`);
    expect(answer.head, target).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(answer.body).data, target).toHaveLength(1);
  }
  const me = await rawExchange(`GET /v1/me#x HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${seeded.token}\r\nConnection: close\r\n\r\n`);
  expect(me.head).toMatch(/^HTTP\/1\.1 200 /);
});
