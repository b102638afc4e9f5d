/**
 * A self-signed certificate for 127.0.0.1 (valid 2000–2099) for local https webhook receivers:
 * webhook URLs must be https, so a test trusts this certificate through undici's connector `ca`.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

export const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBdzCCAR2gAwIBAgIUAufWR7XwNsX/QvnnsQdxKaRGS6EwCgYIKoZIzj0EAwIw
IjEgMB4GA1UEAwwXc2l0ZWF1ZGl0LXRlc3QtcmVjZWl2ZXIwIBcNMDAwMTAxMDAw
MDAwWhgPMjA5OTEyMzEwMDAwMDBaMCIxIDAeBgNVBAMMF3NpdGVhdWRpdC10ZXN0
LXJlY2VpdmVyMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEX4KKLKDJnoFgJI5c
w2QUvl2N2rVSC8X08LiInWuzpKGdE6kePITGi5SDyyecuj+HFsx8JqTqhul+f4wl
BGT3AKMvMC0wGgYDVR0RBBMwEYcEfwAAAYIJbG9jYWxob3N0MA8GA1UdEwEB/wQF
MAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIgZQjQYarK5AdNNiPZslyoV/5aSzumagcF
ZH+7xdbvdW4CIQDcOVHZPcup27Bjuffq8xaQPnbdm3grCaFekFG+gmoLAw==
-----END CERTIFICATE-----
`;

export const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgOrsEwS8PKOlfMpVA
IfdEZyZeQXCy/1VpXr5P97qEnn2hRANCAARfgoosoMmegWAkjlzDZBS+XY3atVIL
xfTwuIida7OkoZ0TqR48hMaLlIPLJ5y6P4cWzHwmpOqG6X5/jCUEZPcA
-----END PRIVATE KEY-----
`;

export interface TlsReceiver {
  url: string;
  bodies: string[];
  close(): Promise<void>;
}

/** An https receiver on 127.0.0.1 answering 200 to every request, keeping the bodies. */
export async function startTlsReceiver(): Promise<TlsReceiver> {
  const bodies: string[] = [];
  const server: Server = createServer({ key: TEST_KEY, cert: TEST_CERT }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
