/**
 * The crawler's browser (crawler/types.ts PageRenderer) on playwright-core and a local Chromium.
 *
 * - One browser per renderer, started on first use; every page gets its own context (no cookie
 *   or storage leaks between pages) and at most `concurrency` contexts are open at once.
 * - The document is not fetched twice: the browser's navigation is answered with the HTML the
 *   crawler already fetched (same status and headers); its subresources load from the network
 *   through the guard proxy (guard-proxy.ts) unless private addresses are allowed.
 * - Fetched-HTML accessibility (no scripts): the document is served with
 *   `Content-Security-Policy: script-src 'none'` and every other request is aborted, so axe sees
 *   the markup as fetched, with the browser's default styles and no site CSS or JavaScript.
 *   (axe needs a DOM; jsdom is not a dependency, and Chromium with scripts disabled stops axe's
 *   own timers, hence the CSP.)
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { abortError, throwIfAborted } from '../abort.js';
import { RenderError, type AccessibilityFinding, type AccessibilityRules, type FetchedPage, type PageRenderer, type RenderedPage } from '../crawler/index.js';
import { runAxe } from './axe.js';
import { CHROMIUM_FLAGS, chromiumAvailable, proxyFlags, resolveChromePath } from './chromium.js';
import { startGuardProxy, type GuardProxy, type GuardProxyOptions } from './guard-proxy.js';

export interface RendererOptions {
  /** Default: CHROME_PATH, else /usr/bin/chromium. */
  executablePath?: string;
  /** Lets the browser reach loopback and private networks (development, tests). Default false. */
  allowPrivateAddresses?: boolean;
  /** Pages open at once, one browser context each. Default 2. */
  concurrency?: number;
  /** Limit for loading one page (navigation to `load`). Default 30 s. */
  timeoutMs?: number;
  /** After `load`, the longest wait for the network to go quiet (content fetched by scripts). Default 3 s. */
  settleMs?: number;
  userAgent?: string;
  /** Basic credentials, which the browser sends only to this origin (the campaign's site). */
  httpAuth?: { origin: string; user: string; password: string } | null;
  /** Custom vetting of destinations (tests); forces the guard proxy even with private addresses allowed. */
  vet?: GuardProxyOptions['vet'];
  /** Flags added after CHROMIUM_FLAGS. */
  args?: string[];
}

export interface Renderer extends PageRenderer {
  readonly stats: { rendered: number; audited: number; failed: number };
  /** The guard proxy in use, if any (its `refused` list says what was blocked). */
  readonly guard: GuardProxy | null;
  close(): Promise<void>;
}

/** Response headers that describe the bytes on the wire, which we no longer send as such. */
const WIRE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-type']);

function fulfilHeaders(headers: FetchedPage['headers']): Record<string, string> {
  // Null prototype: the names come from the crawled site (a `__proto__` header is a header).
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || WIRE_HEADERS.has(name.toLowerCase())) continue;
    out[name] = Array.isArray(value) ? value.join(name.toLowerCase() === 'set-cookie' ? '\n' : ', ') : value;
  }
  // The body is handed over decoded, as UTF-8, whatever charset it arrived in.
  out['content-type'] = 'text/html; charset=utf-8';
  return out;
}

function sameUrl(a: URL, b: string): boolean {
  try {
    return a.href === new URL(b).href;
  } catch {
    return false;
  }
}

function classify(error: unknown, closedByDeadline: boolean): RenderError {
  if (error instanceof RenderError) return error;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  if (closedByDeadline || (error as { name?: string }).name === 'TimeoutError') return new RenderError('timeout', message);
  if (/Target (page, context or browser )?(has been )?closed|Browser has been closed|crash/i.test(message)) return new RenderError('crashed', message);
  if (/net::ERR_/.test(message)) return new RenderError('navigation', message);
  return new RenderError('render_error', message);
}

/** A counting semaphore: at most `size` holders; waiters leave the queue when their signal aborts. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.free > 0) this.free--;
    else {
      await new Promise<void>((resolve, reject) => {
        const grant = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = this.waiting.indexOf(grant);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(abortError(signal, 'crawl stopped'));
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(grant);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

/**
 * Creates a renderer; nothing starts until the first page. Close it when the crawl ends.
 * @example
 * const renderer = createRenderer({ allowPrivateAddresses: false });
 * try { await crawlSite({ ...config, javascriptRendering: true }, sink, { renderer }); } finally { await renderer.close(); }
 */
export function createRenderer(options: RendererOptions = {}): Renderer {
  const executablePath = resolveChromePath(options.executablePath);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const settleMs = options.settleMs ?? 3_000;
  const slots = new Slots(Math.max(1, options.concurrency ?? 2));
  const stats = { rendered: 0, audited: 0, failed: 0 };
  let browser: Promise<Browser> | null = null;
  let guard: GuardProxy | null = null;
  let closed = false;

  async function launch(): Promise<Browser> {
    // Checked first: a failed launch would leave Playwright's temporary profile behind.
    if (!chromiumAvailable(executablePath)) throw new RenderError('launch_failed', `Chromium could not be started from ${executablePath}: no executable there (set CHROME_PATH)`);
    const { chromium } = await import('playwright-core');
    const args = [...CHROMIUM_FLAGS, ...(options.args ?? [])];
    if (!options.allowPrivateAddresses || options.vet) {
      guard ??= await startGuardProxy({ allowPrivateAddresses: options.allowPrivateAddresses ?? false, vet: options.vet, timeoutMs });
      args.push(...proxyFlags(guard.url));
    }
    try {
      const b = await chromium.launch({ executablePath, args, timeout: 60_000 });
      // A crashed browser is started again for the next page.
      b.on('disconnected', () => {
        if (browser && !closed) browser = null;
      });
      return b;
    } catch (error) {
      throw new RenderError('launch_failed', `Chromium could not be started from ${executablePath}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }

  function getBrowser(): Promise<Browser> {
    if (closed) return Promise.reject(new RenderError('closed', 'the renderer is closed'));
    if (!browser) {
      const starting = launch();
      browser = starting;
      starting.catch(() => {
        if (browser === starting) browser = null;
      });
    }
    return browser;
  }

  /** Runs `work` in a fresh context within the pool, with one deadline for the whole page. */
  async function withContext<T>(
    signal: AbortSignal | undefined,
    contextOptions: Parameters<Browser['newContext']>[0],
    work: (context: BrowserContext, page: Page) => Promise<T>,
  ): Promise<T> {
    const release = await slots.acquire(signal);
    let context: BrowserContext | null = null;
    let expired = false;
    // Closing a context whose browser died or already closed it: nothing left to free.
    const close = () => void context?.close().catch(() => undefined);
    const deadline = setTimeout(() => {
      expired = true;
      close();
    }, timeoutMs + settleMs + 60_000);
    signal?.addEventListener('abort', close, { once: true });
    try {
      const b = await getBrowser();
      context = await b.newContext({ serviceWorkers: 'block', acceptDownloads: false, userAgent: options.userAgent, ...contextOptions });
      context.setDefaultTimeout(timeoutMs);
      const page = await context.newPage();
      return await work(context, page);
    } catch (error) {
      stats.failed++;
      throwIfAborted(signal);
      throw classify(error, expired);
    } finally {
      clearTimeout(deadline);
      signal?.removeEventListener('abort', close);
      await context?.close().catch(() => undefined); // as `close` above
      release();
    }
  }

  return {
    stats,
    get guard() {
      return guard;
    },

    async render(fetched: FetchedPage, { accessibility, signal }: { accessibility: AccessibilityRules; signal?: AbortSignal }): Promise<RenderedPage> {
      const auth = options.httpAuth;
      return withContext(
        signal,
        { javaScriptEnabled: true, httpCredentials: auth ? { username: auth.user, password: auth.password, origin: auth.origin } : undefined },
        async (_context, page) => {
          await page.route((u) => sameUrl(u, fetched.url), (route) => route.fulfill({ status: fetched.status, headers: fulfilHeaders(fetched.headers), body: fetched.html }), { times: 1 });
          await page.goto(fetched.url, { waitUntil: 'load', timeout: timeoutMs });
          // Content fetched by scripts after load: wait for a quiet network, within reason.
          // A network that never goes quiet (polling, analytics) is common: render what loaded.
          await page.waitForLoadState('networkidle', { timeout: settleMs }).catch(() => undefined);
          const html = await page.content();
          const findings = accessibility === 'none' ? null : await runAxe(page, accessibility);
          stats.rendered++;
          return { html, accessibility: findings };
        },
      );
    },

    async auditHtml(fetched: FetchedPage, { signal }: { signal?: AbortSignal } = {}): Promise<AccessibilityFinding[]> {
      return withContext(signal, { javaScriptEnabled: true }, async (context, page) => {
        let served = false;
        await context.route('**/*', (route) => {
          const request = route.request();
          if (!served && request.isNavigationRequest() && sameUrl(new URL(request.url()), fetched.url)) {
            served = true;
            // The page's scripts stay off; axe is evaluated through the DevTools protocol, which CSP does not govern.
            return route.fulfill({
              status: 200,
              headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "script-src 'none'; object-src 'none'" },
              body: fetched.html,
            });
          }
          return route.abort('blockedbyclient');
        });
        await page.goto(fetched.url, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
        const findings = await runAxe(page, 'static');
        stats.audited++;
        return findings;
      });
    },

    async close() {
      closed = true;
      const b = browser;
      browser = null;
      // A browser that never started (its launch error went to the page that asked) or already exited.
      if (b) await b.then((x) => x.close()).catch(() => undefined);
      if (guard) await guard.close();
      guard = null;
    },
  };
}
