/**
 * The browser's network guard, without a browser: plain HTTP and CONNECT through the proxy are
 * refused for non-public destinations unless private addresses are allowed, and a custom vetting
 * rule (the tests' way to refuse one local host) applies to both.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressRefusedError } from '../../src/net/address-guard.js';
import { startGuardProxy, type GuardProxy } from '../../src/rendering/index.js';
import { serve, type LocalSite } from '../../../../tests/support/rendering.js';

let site: LocalSite;
beforeAll(async () => {
  site = await serve({ '/ok': { type: 'text/plain', body: 'fine' } });
});
afterAll(() => site.close());

/** GET `target` through the proxy in absolute form, as a browser does for http:// URLs. */
function viaProxy(proxy: GuardProxy, target: string): Promise<{ status: number; body: string; refused: string | null }> {
  const p = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: p.hostname, port: p.port, path: target, headers: { host: new URL(target).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, refused: (res.headers['x-siteaudit-refused'] as string) ?? null }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The first line the proxy answers to CONNECT `authority`. */
function tunnel(proxy: GuardProxy, authority: string): Promise<string> {
  const p = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(p.port), p.hostname, () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
    socket.once('data', (d) => {
      resolve(d.toString('latin1').split('\r\n')[0]);
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

describe('guard proxy', () => {
  it('refuses loopback by default, over HTTP and CONNECT, and says what it refused', async () => {
    const proxy = await startGuardProxy({ allowPrivateAddresses: false });
    try {
      const res = await viaProxy(proxy, `${site.url}/ok`);
      expect(res).toMatchObject({ status: 403, refused: 'address' });
      expect(await tunnel(proxy, `${new URL(site.url).host}`)).toBe('HTTP/1.1 403 Forbidden');
      expect(await tunnel(proxy, '[::1]:443')).toBe('HTTP/1.1 403 Forbidden');
      expect(proxy.refused.map((r) => r.host)).toEqual(['127.0.0.1', '127.0.0.1', '::1']);
      expect(site.hits.get('/ok')).toBeUndefined();
    } finally {
      await proxy.close();
    }
  });

  it('forwards when private addresses are allowed, and applies a custom vetting rule', async () => {
    const proxy = await startGuardProxy({
      allowPrivateAddresses: true,
      vet: async (host) => {
        if (host === 'localhost') throw new AddressRefusedError(host, '127.0.0.1');
        return { address: '127.0.0.1', family: 4 };
      },
    });
    try {
      expect(await viaProxy(proxy, `${site.url}/ok`)).toMatchObject({ status: 200, body: 'fine' });
      expect(await tunnel(proxy, new URL(site.url).host)).toBe('HTTP/1.1 200 Connection Established');
      const port = new URL(site.url).port;
      expect((await viaProxy(proxy, `http://localhost:${port}/ok`)).status).toBe(403);
      expect(proxy.refused).toEqual([{ host: 'localhost', address: '127.0.0.1' }]);
    } finally {
      await proxy.close();
    }
  });
});
