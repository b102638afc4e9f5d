/** What the crawl benchmark's parent (run.ts) and its children (child.ts) share. */
export const CONCURRENCY = 8;
export const SAMPLE_MS = 50;

export type Variant = 'a' | 'b' | 'c';
export const LABELS: Record<Variant, string> = {
  a: 'bare undici fetch loop (ceiling)',
  b: 'crawlee CheerioCrawler (peer)',
  c: 'Site Audit crawl through the API',
};
