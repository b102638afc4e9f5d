/** A running crawl's progress in the operations list: whole percent of its URL budget, 0..100. */
export function crawlProgressPercent(crawled: number, budget: number): number {
  return budget > 0 ? Math.min(100, Math.floor((crawled / budget) * 100)) : 0;
}

/**
 * Pages fetched per second (one decimal): the pages crawled over the time from the start of
 * fetching to its end (`finished_at`, set when fetching ends), or to `now` while it fetches;
 * null before fetching starts. A resumed crawl counts from its first start.
 */
export function pagesPerSecond(crawled: number, startedAt: string | null, fetchedAt: string | null, now: number): number | null {
  if (!startedAt) return null;
  const seconds = ((fetchedAt ? Date.parse(fetchedAt) : now) - Date.parse(startedAt)) / 1000;
  if (!(seconds > 0)) return crawled > 0 ? null : 0;
  return Math.round((crawled / seconds) * 10) / 10;
}
