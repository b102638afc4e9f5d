/**
 * What creating a project sets up (docs/decisions/projects.md): its stored URL, its slug, and the
 * crawl budget of its default campaign.
 */
import { PROJECT_NAME_MAX } from '../resources/projects.js';
import type { Plan } from './plans.js';

/** The site URL as stored: parsed (scheme and host lowercased, root path added), fragment dropped. */
export function normaliseSiteUrl(url: string): URL {
  const parsed = new URL(url.trim());
  parsed.hash = '';
  return parsed;
}

/** A project's name when none is given: its host name, cut to the longest name a caller may give. */
export function defaultProjectName(site: URL): string {
  return site.hostname.slice(0, PROJECT_NAME_MAX);
}

/** The name in lowercase ASCII, accents dropped, every other run of characters a dash: `Mon Été Café` → `mon-ete-cafe`. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return slug || 'project';
}

/** `base` when free within the team, else the first free of `base-2`, `base-3`… */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Depth and URL budget of the campaign every project starts with. */
export const DEFAULT_CAMPAIGN_SETTINGS = { max_depth: 5, max_urls: 500 } as const;

/** The default campaign's crawl bounds under `plan`: `max_urls` is min(500, the plan's budget). */
export function defaultCampaignBounds(plan: Plan): { max_depth: number; max_urls: number } {
  const budget = plan.limits['crawls.max_urls'];
  return {
    max_depth: DEFAULT_CAMPAIGN_SETTINGS.max_depth,
    max_urls: budget === null ? DEFAULT_CAMPAIGN_SETTINGS.max_urls : Math.min(budget, DEFAULT_CAMPAIGN_SETTINGS.max_urls),
  };
}
