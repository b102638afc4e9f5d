/**
 * The URLs a browser loads with a page, read from its elements as the HTML parser opens them:
 * stylesheets, icons, manifests, preloads (`<link href>` by rel), scripts, images (`src`,
 * `srcset`, `<picture><source srcset>`, `poster`), media (`<video|audio|source|track src>`),
 * frames (`<iframe|frame src>`) and embedded objects (`<embed src>`, `<object data>`). URLs are
 * kept as written (resolved against <base> by the page audit); those that load nothing from the
 * network (data:, blob:, javascript:, about:, in-page fragments) are skipped here, so a large
 * inline data: image is never held.
 */
import type { ResourceType } from '@siteaudit/schema';
import { srcsetUrls } from './srcset.js';

export type { ResourceType };

export interface HtmlResource {
  /** As written in the attribute, trimmed. */
  url: string;
  type: ResourceType;
}

/** References kept per page; far above a real page, a bound for a hostile one. */
export const RESOURCE_CAP = 2_000;

const NOT_FETCHED = /^(?:data|blob|javascript|about):/i;

function add(list: HtmlResource[], raw: string | undefined, type: ResourceType): void {
  if (raw === undefined || list.length >= RESOURCE_CAP) return;
  const url = raw.trim();
  if (url === '' || url.startsWith('#') || NOT_FETCHED.test(url)) return;
  list.push({ url, type });
}

function addSrcset(list: HtmlResource[], srcset: string | undefined, type: ResourceType): void {
  if (srcset === undefined) return;
  for (const url of srcsetUrls(srcset)) add(list, url, type);
}

/** The type a `<link>` loads by its rel, or null when it loads nothing (canonical, alternate…). */
function linkType(rel: string | undefined): ResourceType | null {
  if (!rel) return null;
  const rels = rel.toLowerCase().split(/[\t\n\f\r ]+/);
  if (rels.includes('stylesheet')) return 'stylesheet';
  // icon, shortcut icon, apple-touch-icon(-precomposed), mask-icon, fluid-icon…
  if (rels.some((r) => r === 'icon' || r.endsWith('-icon') || r === 'apple-touch-icon-precomposed')) return 'icon';
  if (rels.includes('manifest')) return 'manifest';
  if (rels.includes('preload') || rels.includes('modulepreload')) return 'preload';
  return null;
}

/** Adds the resources element `name` (lower-cased, with lower-cased attributes `a`) references. */
export function collectResources(name: string, a: Record<string, string>, list: HtmlResource[]): void {
  switch (name) {
    case 'link': {
      const type = linkType(a.rel);
      if (type) add(list, a.href, type);
      break;
    }
    case 'script':
      add(list, a.src, 'script');
      break;
    case 'img':
      add(list, a.src, 'image');
      addSrcset(list, a.srcset, 'image');
      break;
    case 'source':
      // In <picture>, a source offers images (srcset); in <video>/<audio>, media (src).
      addSrcset(list, a.srcset, 'image');
      add(list, a.src, 'media');
      break;
    case 'video':
      add(list, a.src, 'media');
      add(list, a.poster, 'image');
      break;
    case 'audio':
    case 'track':
      add(list, a.src, 'media');
      break;
    case 'iframe':
    case 'frame':
      add(list, a.src, 'frame');
      break;
    case 'embed':
      add(list, a.src, 'object');
      break;
    case 'object':
      add(list, a.data, 'object');
      break;
  }
}
