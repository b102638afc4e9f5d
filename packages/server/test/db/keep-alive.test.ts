/**
 * Idle keep-alive connections stay open 65 s (docs/deployment.md, "Keep-alive"), longer than a
 * balancer's (60 s): with Node's default of 5 s, a balancer or a client whose event loop lagged
 * sent its next request on a connection the server was closing, and got a reset.
 */
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

function get(agent: Agent, path: string): Promise<{ status: number; keepAlive: string | undefined; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(`${h.url}${path}`, { agent, headers: { authorization: `Bearer ${h.token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, keepAlive: res.headers['keep-alive'] as string | undefined, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('keep-alive', () => {
  it('says timeout=65, and answers on a connection left idle longer than Node\'s 5 s default', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await get(agent, '/v1/me')).toMatchObject({ status: 200, keepAlive: 'timeout=65', reused: false });
      await new Promise((r) => setTimeout(r, 6_000));
      expect(await get(agent, '/v1/me')).toMatchObject({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });
});
