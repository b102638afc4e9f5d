/**
 * The TLS reasons of a failed attempt, against local https receivers using the shared test
 * certificate (self-signed, for 127.0.0.1 and localhost), and the two ways to trust a private
 * CA: NODE_EXTRA_CA_CERTS (read by Node at start-up, so tried in a child process) and the
 * guarded agent's `ca`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverWebhook, type DeliveryResult } from '../../src/delivery/delivery.js';
import { classifyFailure } from '../../src/delivery/failure-reason.js';
import { AddressRefusedError, createGuardedAgent } from '../../src/net/address-guard.js';
import { TEST_CERT, TEST_KEY } from '../../../../tests/support/tls.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const run = promisify(execFile);

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

/** A receiver answering 200; https with the test certificate unless `plain`. */
async function receiver(host = '127.0.0.1', plain = false): Promise<number> {
  const answer = (_req: unknown, res: import('node:http').ServerResponse) => res.writeHead(200).end();
  const server = plain ? createHttpServer(answer) : createHttpsServer({ key: TEST_KEY, cert: TEST_CERT }, answer);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

async function deliver(url: string, ca?: string[]): Promise<DeliveryResult> {
  const agent = createGuardedAgent({ allowPrivate: true, ca });
  try {
    return await deliverWebhook({ url, body: '{}', headers: { 'content-type': 'application/json' }, allowPrivateAddresses: true }, agent);
  } finally {
    await agent.destroy();
  }
}

describe('TLS failures of a delivery', () => {
  it('is tls_certificate_untrusted for a self-signed receiver, and delivers once its CA is trusted', async () => {
    const port = await receiver();
    expect(await deliver(`https://127.0.0.1:${port}/hook`)).toMatchObject({ ok: false, responseStatus: null, errorReason: 'tls_certificate_untrusted', errorCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(await deliver(`https://127.0.0.1:${port}/hook`, [TEST_CERT])).toMatchObject({ ok: true, responseStatus: 200, errorReason: null });
    expect(await deliver(`https://localhost:${port}/hook`, [TEST_CERT])).toMatchObject({ ok: true, responseStatus: 200 });
  });

  it('is tls_hostname_mismatch when a trusted certificate names another host', async () => {
    // The certificate is for 127.0.0.1 and localhost; 127.0.0.2 is loopback too on Linux.
    const port = await receiver('127.0.0.2');
    expect(await deliver(`https://127.0.0.2:${port}/`, [TEST_CERT])).toMatchObject({ ok: false, errorReason: 'tls_hostname_mismatch', errorCode: 'ERR_TLS_CERT_ALTNAME_INVALID' });
  });

  it('is tls_handshake_failed when an https URL points at a plain http receiver', async () => {
    const port = await receiver('127.0.0.1', true);
    expect(await deliver(`https://127.0.0.1:${port}/`)).toMatchObject({ ok: false, responseStatus: null, errorReason: 'tls_handshake_failed' });
  });

  it('trusts a CA given in NODE_EXTRA_CA_CERTS', async () => {
    const port = await receiver();
    const dir = await mkdtemp(path.join(tmpdir(), 'siteaudit-ca-'));
    try {
      const caFile = path.join(dir, 'ca.pem');
      await writeFile(caFile, TEST_CERT);
      const attempt = async (env: NodeJS.ProcessEnv) => {
        const script = path.join(ROOT, 'packages/server/test/delivery/fixtures/deliver-once.ts');
        const { stdout } = await run(path.join(ROOT, 'node_modules/.bin/tsx'), ['--tsconfig', path.join(ROOT, 'tsconfig.json'), script, `https://127.0.0.1:${port}/hook`], { env: { ...process.env, ...env }, cwd: ROOT });
        return JSON.parse(stdout) as DeliveryResult;
      };
      expect(await attempt({ NODE_EXTRA_CA_CERTS: '' })).toMatchObject({ ok: false, errorReason: 'tls_certificate_untrusted' });
      expect(await attempt({ NODE_EXTRA_CA_CERTS: caFile })).toMatchObject({ ok: true, responseStatus: 200 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('classifyFailure', () => {
  const error = (code: string) => Object.assign(new Error(code), { code });
  it.each([
    ['CERT_HAS_EXPIRED', 'tls_certificate_expired'],
    ['CERT_NOT_YET_VALID', 'tls_certificate_expired'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'tls_certificate_untrusted'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'tls_certificate_untrusted'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls_handshake_failed'],
    ['EPROTO', 'tls_handshake_failed'],
    ['ECONNREFUSED', 'connection_refused'],
    ['ECONNRESET', 'connection_failed'],
    ['EHOSTUNREACH', 'connection_failed'],
    ['UND_ERR_SOCKET', 'connection_failed'],
    ['UND_ERR_HEADERS_TIMEOUT', 'timeout'],
    ['EAI_AGAIN', 'dns_failure'],
  ])('reads %s as %s', (code, reason) => {
    expect(classifyFailure(error(code), false)).toEqual({ reason, code });
  });

  it('tells an unresolved name from a refused address, and our deadline from the rest', () => {
    expect(classifyFailure(new AddressRefusedError('x.invalid', undefined, { cause: error('ENOTFOUND') }), false)).toEqual({ reason: 'dns_failure', code: 'ENOTFOUND' });
    expect(classifyFailure(new AddressRefusedError('x.test', '10.0.0.1'), false)).toEqual({ reason: 'refused_address', code: null });
    expect(classifyFailure(error('UND_ERR_ABORTED'), true).reason).toBe('timeout');
    expect(classifyFailure(new Error('no code'), false)).toEqual({ reason: 'connection_failed', code: null });
  });
});
