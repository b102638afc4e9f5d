/**
 * Robots directives of a page (meta robots and X-Robots-Tag): the ones Google reads, those other
 * engines read, and which lines of them apply to our user agent.
 */
export const ROBOTS_DIRECTIVES = new Set([
  'all', 'noindex', 'nofollow', 'none', 'noarchive', 'nosnippet', 'notranslate', 'noimageindex', 'unavailable_after',
  'max-snippet', 'max-image-preview', 'max-video-preview', 'indexifembedded', 'index', 'follow', 'noai', 'noimageai',
]);
/** Directives other engines read, or Google once did: not reported as unknown. */
export const OTHER_ROBOTS_DIRECTIVES = new Set(['noodp', 'noydir', 'noyaca', 'nocache', 'nositelinkssearchbox', 'noarchive', 'archive', 'snippet', 'odp', 'imageindex', 'translate']);

/**
 * Robots directives that apply to us: every meta robots value, and the X-Robots-Tag lines that
 * are unprefixed or prefixed with our token (`ourbot: noindex, nofollow`: the prefix holds until
 * the end of its header line).
 */
export function robotsDirectives(metaRobots: readonly string[], xRobotsTag: string | string[] | null | undefined, token: string): Set<string> {
  const out = new Set<string>();
  const add = (directive: string) => {
    const v = directive.trim().toLowerCase().split(':')[0].trim();
    if (v) out.add(v);
  };
  for (const m of metaRobots) m.split(',').forEach(add);
  const lines = xRobotsTag == null ? [] : Array.isArray(xRobotsTag) ? xRobotsTag : [xRobotsTag];
  for (const line of lines) {
    let forUs = true;
    for (const part of line.split(',')) {
      const prefixed = /^\s*([a-z0-9_-]+)\s*:\s*(.*)$/i.exec(part);
      if (prefixed && !ROBOTS_DIRECTIVES.has(prefixed[1].toLowerCase())) {
        forUs = prefixed[1].toLowerCase() === token;
        if (forUs) add(prefixed[2]);
      } else if (forUs) add(part);
    }
  }
  return out;
}
