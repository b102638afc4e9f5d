import { describe, expect, it } from 'vitest';
import { isLocalHostName } from '../../src/rules/local-names.js';

describe('local host names (docs/decisions/outbound-addresses.md)', () => {
  it('refuses localhost and the local zones, names under them, any case, a trailing dot', () => {
    for (const host of ['localhost', 'LOCALHOST.', 'api.localhost', 'printer.local', 'nas.home.arpa', 'svc.internal', 'router.lan']) {
      expect(isLocalHostName(host), host).toBe(true);
    }
  });

  it('lets public names through, even when they end like a zone without its dot', () => {
    for (const host of ['example.com', 'mylocal', 'notlocalhost', 'localhost.example.com', 'planet.lan.example']) {
      expect(isLocalHostName(host), host).toBe(false);
    }
  });
});
