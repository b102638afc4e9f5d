/**
 * Two crawls of a campaign are comparable when they ran with the same configuration, credentials
 * aside (docs/decisions/crawl-lifecycle.md): the settings of a campaign create body that shape a
 * crawl, without its name, schedule, notification switch, regression threshold and HTTP credentials. The server and
 * the mock hash this one text, each with its own hash. `regression_threshold` is not a crawl
 * setting: it says what to do with a comparison, so changing it keeps crawls comparable.
 */

/** The campaign settings a crawl runs with, in the order they are hashed. */
export const CRAWL_SETTINGS = [
  'check_accessibility',
  'check_accessibility_rendered',
  'check_ai_reachability',
  'check_external_links',
  'duplication_threshold',
  'exclude_patterns',
  'include_patterns',
  'issue_exclusion_patterns',
  'javascript_rendering',
  'max_depth',
  'max_urls',
  'pagespeed',
  'protected_site',
  'retries',
  'start_url',
  'timeout',
] as const;

/**
 * The canonical text of a campaign's crawl settings. Booleans are folded to 0/1 (SQLite hands
 * them back so) and a missing setting counts as null, so a reloaded campaign hashes the same.
 */
export function crawlSettingsText(campaign: Partial<Record<(typeof CRAWL_SETTINGS)[number], unknown>>): string {
  return JSON.stringify(
    CRAWL_SETTINGS.map((name) => {
      const value = campaign[name] ?? null;
      return [name, typeof value === 'boolean' ? Number(value) : value];
    }),
  );
}
