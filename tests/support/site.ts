/** A small local website with known defects, served on 127.0.0.1 for crawl tests. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Site {
  url: string;
  hits: Map<string, number>;
  /** Holds every answer until released: lets a test catch a crawl while it runs. */
  hold(): () => void;
  close(): Promise<void>;
}

const page = (title: string, body: string, extra = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title><meta name="description" content="${'A page of the test site used to check the audit of a crawl. '.repeat(2)}">${extra}</head><body><h1>${title}</h1>${body}<p>${'Words of content for the page. '.repeat(60)}</p></body></html>`;

/** A page of the site; `hangUp` closes the connection without answering (a network failure). */
export interface SitePage {
  status?: number;
  html?: string;
  headers?: Record<string, string>;
  hangUp?: boolean;
}

export const PAGES: Record<string, SitePage> = {
  '/': { html: page('Home page of the test site', '<a href="/about">About</a> <a href="/blog/">Blog</a> <a href="/missing">Missing</a> <a href="/old">Old</a>') },
  '/about': { html: page('About the test site and its team', '<a href="/">Home</a> <img src="/logo.png"> <a href="/blog/">Blog</a>') },
  '/blog/': { html: page('Blog of the test site, all posts', '<a href="/">Home</a> <a href="/blog/post-1">Post</a>') },
  '/blog/post-1': { html: page('First post of the blog of the site', '<a href="/blog/">Blog</a>').replace(/<title>.*<\/title>/, '') },
  '/missing': { status: 404, html: '<html><body>Not found</body></html>' },
  '/old': { status: 301, headers: { location: '/about' } },
  '/robots.txt': { html: 'User-agent: *\nAllow: /\n', headers: { 'content-type': 'text/plain' } },
};

export async function startSite(pages = PAGES): Promise<Site> {
  const hits = new Map<string, number>();
  let gate: Promise<void> | null = null;
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (gate) await gate;
    const entry = pages[path];
    if (!entry) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>nothing</body></html>');
      return;
    }
    if (entry.hangUp) {
      req.socket.destroy();
      return;
    }
    res.writeHead(entry.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...entry.headers });
    res.end(entry.html ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    hold() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
