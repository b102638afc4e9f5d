/**
 * Where Chromium is and how it is started, shared by the renderer (playwright-core) and the
 * Lighthouse provider (chrome-launcher). We never download a browser: the operator installs one
 * (Debian: `apt-get install chromium`) and names it with CHROME_PATH or an option.
 */
import { accessSync, constants } from 'node:fs';

/** The flags every Chromium we start gets: headless, no sandbox (containers), no background chatter. */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const DEFAULT_CHROME_PATH = '/usr/bin/chromium';

/** The Chromium executable: the explicit option, else CHROME_PATH, else Debian's /usr/bin/chromium. */
export function resolveChromePath(explicit?: string | null): string {
  return explicit || process.env.CHROME_PATH || DEFAULT_CHROME_PATH;
}

/** True when the executable exists and may be run (tests skip the browser suites otherwise). */
export function chromiumAvailable(path: string = resolveChromePath()): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Flags that send every request of the browser through the guard proxy: loopback included
 * (Chromium bypasses proxies for it unless told `<-loopback>`), and no WebRTC UDP around it.
 */
export function proxyFlags(proxyUrl: string): string[] {
  return [`--proxy-server=${proxyUrl}`, '--proxy-bypass-list=<-loopback>', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp'];
}
