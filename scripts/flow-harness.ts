/**
 * What the opt-in client flows run against, shared by scripts/check-generators.ts and
 * scripts/perl-openapi/serve.ts: the **built** server (`packages/server/dist`,
 * `createSiteAuditServer`, in-memory SQLite, private addresses allowed) with a team on the
 * `agency` plan and a token of every scope, a small local site whose second version removes a
 * page, breaks one and adds one (so that a second crawl has page changes), and an http webhook
 * receiver that keeps every body by path.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SCOPES } from '@siteaudit/schema';
import type { SiteAuditServer } from '../packages/server/src/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BUILT_SERVER = path.join(ROOT, 'packages/server/dist/index.js');

const html = (title: string, links: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="${'A page of the site crawled by the generator check. '.repeat(2)}"></head><body><h1>${title}</h1>${links}<p>${'Words of the page. '.repeat(60)}</p></body></html>`;
const SITE: Record<number, Record<string, string>> = {
  1: {
    '/': html('Home of the generator check site', '<a href="/about">About</a> <a href="/blog/">Blog</a> <a href="/missing">Missing</a>'),
    '/about': html('About the generator check site', '<a href="/">Home</a>'),
    '/blog/': html('Blog of the generator check site', '<a href="/">Home</a> <a href="/blog/post">Post</a>'),
    '/blog/post': html('A post of the generator check site', '<a href="/blog/">Blog</a>'),
  },
  2: {
    '/': html('Home of the generator check site', '<a href="/about">About</a> <a href="/blog/">Blog</a> <a href="/new">New</a>'),
    '/about': html('About the generator check site', '<a href="/">Home</a> <a href="/gone">Gone</a>'),
    '/blog/': html('Blog of the generator check site', '<a href="/">Home</a> <a href="/blog/post">Post</a>'),
    '/new': html('A new page of the generator check site', '<a href="/">Home</a>'),
  },
};

export function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

export const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

export interface Site {
  url: string;
  /** 1 or 2: the version of the site answered. */
  version: number;
  server: Server;
  /** Held: every answer waits for it (a crawl caught while it runs, to be stopped). */
  gate: Promise<void> | null;
}

export async function startSite(): Promise<Site> {
  const site: Site = { url: '', version: 1, server: null as unknown as Server, gate: null };
  site.server = createServer(async (req, res) => {
    if (site.gate) await site.gate;
    const body = SITE[site.version][new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(body ?? '<html><body>Not found</body></html>');
  });
  site.url = await listen(site.server);
  return site;
}

export const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

/** An http webhook receiver: every body it got, by request path. */
export async function startWebhookReceiver(): Promise<{ url: string; bodies: Map<string, string[]>; server: Server }> {
  const bodies = new Map<string, string[]>();
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    bodies.set(req.url ?? '/', [...(bodies.get(req.url ?? '/') ?? []), body]);
    res.writeHead(200).end();
  });
  return { url: await listen(server), bodies, server };
}

/** The built server with a seeded team (`agency`) and an owner's token of every scope. */
export async function startBuiltServer(team = 'generators'): Promise<{ url: string; token: string; admin: SiteAuditServer['admin']; close(): Promise<void> }> {
  if (!existsSync(BUILT_SERVER)) throw new Error(`${BUILT_SERVER} is missing: run npm run build -w @siteaudit/schema -w @siteaudit/server first`);
  const { createSiteAuditServer } = (await import(pathToFileURL(BUILT_SERVER).href)) as typeof import('../packages/server/src/index.js');
  const server = await createSiteAuditServer({ database: 'sqlite::memory:', logger: false, network: { allowPrivateAddresses: true }, secretKey: 'generator-check-secret-key-0123456789' });
  const { url } = await server.listen(0);
  await server.admin.createTeam({ slug: team, name: 'Generators', plan: 'agency' });
  await server.admin.addMember({ team, email: `owner@${team}.test`, name: 'Owner', role: 'owner' });
  const { token } = await server.admin.createToken({ team, member: `owner@${team}.test`, name: 'check', scopes: [...SCOPES] });
  return { url, token, admin: server.admin, close: () => server.close() };
}
