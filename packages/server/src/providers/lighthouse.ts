/**
 * PageSpeed on a local headless Chromium: Lighthouse (performance category only, the mobile
 * default config and the desktop preset) driven through chrome-launcher. One Chromium per
 * `measure` call, pages measured one at a time (parallel runs skew each other's timings). The
 * network guard applies: a page on a non-public address is refused before Chromium starts, and
 * every request Chromium makes goes through the guard proxy (rendering/guard-proxy.ts), so a
 * redirect or a subresource cannot reach a private network either.
 *
 * Lighthouse runs in this process: its trace processing takes some CPU per page (about a second),
 * which the crawl job's post-processing can afford; it is loaded only when first used.
 */
import { AddressRefusedError, assertPublicUrl } from '../net/address-guard.js';
import { CHROMIUM_FLAGS, chromiumAvailable, proxyFlags, resolveChromePath } from '../rendering/chromium.js';
import { startGuardProxy, type GuardProxy, type GuardProxyOptions } from '../rendering/guard-proxy.js';
import { lighthouseScore, type PageSpeedMeasurement, type PageSpeedProvider, type PageSpeedRequest } from './pagespeed.js';
import { throwIfAborted } from '../abort.js';

export interface LighthousePageSpeedOptions {
  /** Default: CHROME_PATH, else /usr/bin/chromium. */
  chromePath?: string;
  /** Lets Lighthouse measure loopback and private networks (development, tests). Default false. */
  allowPrivateAddresses?: boolean;
  /** Longest run for one page, load included; Chromium is restarted after a run that overran. Default 120 s. */
  timeoutMs?: number;
  /** Custom vetting of Chromium's destinations (tests); forces the guard proxy even with private addresses allowed. */
  vet?: GuardProxyOptions['vet'];
  /** Called with the guard proxy of each measure call, once started (tests read its `refused`). */
  onGuard?: (guard: GuardProxy) => void;
}

interface Chrome {
  port: number;
  kill(): void | Promise<void>;
}

/**
 * @example
 * const server = await createSiteAuditServer({ providers: { pagespeed: createLighthousePageSpeed() } });
 */
export function createLighthousePageSpeed(options: LighthousePageSpeedOptions = {}): PageSpeedProvider {
  const chromePath = resolveChromePath(options.chromePath);
  const allowPrivate = options.allowPrivateAddresses ?? false;
  const timeoutMs = options.timeoutMs ?? 120_000;

  return {
    name: 'lighthouse',
    async measure(requests, { signal } = {}) {
      const { default: lighthouse, desktopConfig } = await import('lighthouse');
      const chromeLauncher = await import('chrome-launcher');
      const results: PageSpeedMeasurement[] = [];
      let chrome: Chrome | null = null;
      let guard: GuardProxy | null = null;
      let launchError: string | null = null;
      const stop = async () => {
        const c = chrome;
        chrome = null;
        // Chromium already gone (it crashed, or the run that killed it came first): nothing to do.
        await Promise.resolve(c?.kill()).catch(() => undefined);
      };
      const onAbort = () => void stop();
      signal?.addEventListener('abort', onAbort, { once: true });

      const launch = async (): Promise<Chrome> => {
        // chrome-launcher reports a missing executable as an unhandled spawn error: check first.
        if (!chromiumAvailable(chromePath)) throw new Error(`no Chromium executable at ${chromePath}`);
        const flags = [...CHROMIUM_FLAGS];
        if (!allowPrivate || options.vet) {
          if (!guard) {
            guard = await startGuardProxy({ allowPrivateAddresses: allowPrivate, vet: options.vet });
            options.onGuard?.(guard);
          }
          flags.push(...proxyFlags(guard.url));
        }
        return chromeLauncher.launch({ chromePath, chromeFlags: flags, logLevel: 'silent' });
      };

      const measureOne = async (request: PageSpeedRequest, port: number): Promise<PageSpeedMeasurement> => {
        let timer: NodeJS.Timeout | undefined;
        const overrun = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('TIMEOUT')), timeoutMs);
        });
        try {
          const run = lighthouse(
            request.url,
            { port, output: 'json', logLevel: 'silent', onlyCategories: ['performance'], maxWaitForLoad: Math.min(45_000, timeoutMs) },
            request.strategy === 'desktop' ? desktopConfig : undefined,
          );
          // A run that loses the race to `overrun` may still reject later; the race reports it once.
          run.catch(() => undefined);
          const result = await Promise.race([run, overrun]);
          const lhr = result?.lhr;
          if (lhr?.runtimeError?.code) return { ...request, score: null, error: String(lhr.runtimeError.code) };
          const score = lighthouseScore(lhr);
          return score === null ? { ...request, score: null, error: 'NO_SCORE' } : { ...request, score, error: null };
        } catch (error) {
          // A run that threw or overran may leave Chromium in any state: the next page gets a fresh one.
          await stop();
          const code = error instanceof Error && error.message === 'TIMEOUT' ? 'TIMEOUT' : String((error as { code?: unknown }).code ?? 'LIGHTHOUSE_ERROR');
          return { ...request, score: null, error: code };
        } finally {
          clearTimeout(timer);
        }
      };

      try {
        for (const request of requests) {
          throwIfAborted(signal);
          try {
            await assertPublicUrl(request.url, { allowPrivate });
          } catch (error) {
            results.push({ ...request, score: null, error: error instanceof AddressRefusedError && error.address ? 'ADDRESS_REFUSED' : 'DNS_FAILURE' });
            continue;
          }
          if (launchError) {
            results.push({ ...request, score: null, error: 'CHROME_LAUNCH_FAILED' });
            continue;
          }
          if (!chrome) {
            try {
              chrome = await launch();
            } catch (error) {
              launchError = error instanceof Error ? error.message : String(error);
              results.push({ ...request, score: null, error: 'CHROME_LAUNCH_FAILED' });
              continue;
            }
          }
          results.push(await measureOne(request, chrome.port));
        }
        throwIfAborted(signal);
        return results;
      } finally {
        signal?.removeEventListener('abort', onAbort);
        await stop();
        await (guard as GuardProxy | null)?.close();
      }
    },
  };
}
