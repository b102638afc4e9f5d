import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AddressRefusedError, createGuardedAgent, isPublicAddress } from '../../src/net/address-guard.js';
import { startReceiver, type Receiver } from '../../../../tests/support/receiver.js';

// Names under .test (RFC 6761) resolved by this table; everything else by the system resolver.
const table: Record<string, { address: string; family: 4 | 6 }[]> = {
  'pinned.test': [{ address: '127.0.0.1', family: 4 }],
  'mixed.test': [
    { address: '93.184.215.14', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
};
vi.mock('node:dns/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = (async (host: string, options: object) => table[host] ?? actual.lookup(host, options as never)) as typeof actual.lookup;
  return { ...actual, default: { ...actual, lookup }, lookup };
});

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver((req, res) => res.writeHead(200, { 'x-host': req.headers.host ?? '' }).end());
});
afterAll(() => receiver.close());

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1', '10.0.0.1', '172.16.0.1', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '198.18.0.1', '::1', '::', 'fc00::1', 'fd00:ec2::254', 'fe80::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::', '2001::1', '2001:db8::1', '4000::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4007:80c::200e'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('createGuardedAgent', () => {
  it('connects to the address it vetted, keeping the name in the Host header', async () => {
    const agent = createGuardedAgent({ allowPrivate: true });
    try {
      const response = await request(`http://pinned.test:${receiver.port}/`, { dispatcher: agent });
      await response.body.dump();
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-host']).toBe(`pinned.test:${receiver.port}`);
    } finally {
      await agent.close();
    }
  });

  it('refuses a name when any of its addresses is private, before connecting', async () => {
    const agent = createGuardedAgent({ allowPrivate: false });
    const before = receiver.connections();
    try {
      for (const url of [`http://mixed.test:${receiver.port}/`, `http://pinned.test:${receiver.port}/`, `http://localhost:${receiver.port}/`]) {
        await expect(request(url, { dispatcher: agent }), url).rejects.toBeInstanceOf(AddressRefusedError);
      }
      expect(receiver.connections()).toBe(before);
      // The refusal names the host, never the private address it resolves to: tenants read it.
      const refused = (await request(`http://pinned.test:${receiver.port}/`, { dispatcher: agent }).catch((e: unknown) => e)) as AddressRefusedError;
      expect(refused.message).toBe('pinned.test resolves to a non-public address');
      expect(refused.address).toBe('127.0.0.1');
    } finally {
      await agent.close();
    }
  });
});
