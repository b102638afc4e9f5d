/** A running crawl's progress in the operations list: whole percent of its URL budget, 0..100. */
export function crawlProgressPercent(crawled: number, budget: number): number {
  return budget > 0 ? Math.min(100, Math.floor((crawled / budget) * 100)) : 0;
}
