/**
 * The server inside an application's own Express app (README, examples/embed-express): the
 * application keeps its routes, the API answers under /v1, at the root or under a prefix of the
 * application's, with the same 404 and 405 problems as when it runs on its own.
 */
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { expectProblem } from '../../../../tests/support/http.js';

let h: Harness;
let host: Server;
let base: string;

beforeAll(async () => {
  h = await startHarness();
  const app = express();
  app.get('/health', (_req, res) => void res.json({ ok: true }));
  app.use(h.server.app);
  app.use('/api', h.server.app);
  app.use((_req, res) => void res.status(404).type('text/plain').send('host 404'));
  host = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = host.address() as { port: number };
  base = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise((resolve) => host.close(resolve));
  await h.close();
});

const get = (path: string, init: RequestInit = {}) =>
  fetch(base + path, { ...init, headers: { authorization: `Bearer ${h.token}`, ...(init.headers as Record<string, string>) } });

describe('embedded in an Express app', () => {
  it('keeps the application routes and leaves unknown paths outside /v1 to it', async () => {
    expect(await (await get('/health')).json()).toEqual({ ok: true });
    const other = await get('/elsewhere');
    expect(other.status).toBe(404);
    expect(await other.text()).toBe('host 404');
  });

  for (const prefix of ['', '/api']) {
    it(`answers the API under ${prefix || 'the root'}: reads, 404 and 405 problems`, async () => {
      const list = await get(`${prefix}/v1/projects`);
      expect(list.status).toBe(200);
      expect((await list.json()).meta).toMatchObject({ has_more: false });
      await expectProblem(await get(`${prefix}/v1/nothing-here`), 404, 'not_found');
      const wrong = await get(`${prefix}/v1/projects`, { method: 'PUT' });
      await expectProblem(wrong, 405, 'method_not_allowed');
      expect(wrong.headers.get('allow')).toBe('GET, HEAD, POST');
    });
  }
});
