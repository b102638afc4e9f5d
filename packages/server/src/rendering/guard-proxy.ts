/**
 * The network guard for a browser: a local forward proxy every Chromium request goes through
 * (documents, redirects, subresources, fetch/XHR, WebSockets over CONNECT). Each destination is
 * resolved and vetted by the same rule as the crawler (net/address-guard.ts) and the connection
 * is pinned to the vetted address, so DNS rebinding cannot swap it between check and connect.
 * Request interception in the page (page.route) could only check the name, not the address the
 * browser then connects to: hence a proxy.
 */
import { createServer, request as httpRequest, Agent, type IncomingHttpHeaders } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { AddressRefusedError, resolveVetted, type ResolvedAddress } from '../net/address-guard.js';

export interface GuardProxyOptions {
  /** Lets the browser reach loopback and private networks (development, tests). */
  allowPrivateAddresses: boolean;
  /**
   * Vets a host name and returns the address to connect to; throws AddressRefusedError to refuse.
   * Default: `resolveVetted(host, allowPrivateAddresses)[0]`. Tests use it to refuse one host.
   */
  vet?: (hostname: string) => Promise<ResolvedAddress>;
  /** Upstream inactivity limit. Default 30 s. */
  timeoutMs?: number;
}

export interface GuardProxy {
  /** `http://127.0.0.1:PORT`, for Chromium's --proxy-server. */
  url: string;
  /** Destinations refused so far (host and, when known, the address), most recent last, capped. */
  refused: { host: string; address: string | null }[];
  close(): Promise<void>;
}

const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade'];

function forwardHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers };
  for (const h of HOP_BY_HOP) delete out[h];
  return out;
}

/** `host:port` or `[v6]:port` of a CONNECT request. */
function splitAuthority(authority: string): { host: string; port: number } | null {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(authority) ?? /^([^:]+):(\d+)$/.exec(authority);
  if (!m) return null;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: m[1], port } : null;
}

export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  const vet = options.vet ?? (async (host: string) => (await resolveVetted(host, options.allowPrivateAddresses))[0]);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const refused: GuardProxy['refused'] = [];
  const sockets = new Set<Socket>();
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });

  const refuse = (host: string, error: unknown) => {
    if (refused.length >= 200) refused.shift();
    refused.push({ host, address: error instanceof AddressRefusedError ? (error.address ?? null) : null });
  };

  const server = createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    // Plain HTTP only here; HTTPS comes as CONNECT. Anything else is not for a browser to reach.
    if (target.protocol !== 'http:') {
      res.writeHead(400).end();
      return;
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    vet(host).then(
      ({ address, family }) => {
        const upstream = httpRequest(
          {
            host: address,
            family,
            port: Number(target.port || 80),
            method: req.method,
            path: `${target.pathname}${target.search}`,
            headers: forwardHeaders(req.headers),
            setHost: false,
            agent,
            timeout: timeoutMs,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardHeaders(answer.headers));
            answer.pipe(res);
          },
        );
        upstream.on('timeout', () => upstream.destroy(new Error('upstream timeout')));
        upstream.on('error', () => {
          if (!res.headersSent) res.writeHead(502).end();
          else res.destroy();
        });
        req.pipe(upstream);
      },
      (error) => {
        refuse(host, error);
        res.writeHead(403, { 'content-type': 'text/plain', 'x-siteaudit-refused': 'address' }).end('refused by the network guard');
      },
    );
  });

  server.on('connect', (req, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const authority = splitAuthority(req.url ?? '');
    if (!authority) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    vet(authority.host).then(
      ({ address }) => {
        const upstream = connect({ host: address, port: authority.port, family: isIP(address) || undefined });
        sockets.add(upstream);
        upstream.setTimeout(timeoutMs, () => upstream.destroy());
        upstream.on('close', () => {
          sockets.delete(upstream);
          client.destroy();
        });
        upstream.on('error', () => {
          if (upstream.connecting) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
          upstream.destroy();
        });
        upstream.once('connect', () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        client.on('close', () => upstream.destroy());
      },
      (error) => {
        refuse(authority.host, error);
        client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      },
    );
  });
  // WebSockets through an HTTP proxy use CONNECT; a bare upgrade has no business here.
  server.on('upgrade', (_req, socket: Socket) => socket.destroy());
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    async close() {
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
