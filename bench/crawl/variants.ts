/** What the crawl benchmark's parent (run.ts) and its children (child.ts) share. */
export const CONCURRENCY = 8;
export const SAMPLE_MS = 50;

export type Variant = 'a' | 'p' | 'b' | 'c';
export const LABELS: Record<Variant, string> = {
  a: 'bare undici fetch loop (ceiling)',
  p: 'the same loop, each body gunzipped and tokenised by htmlparser2 (no audit)',
  b: 'crawlee CheerioCrawler (peer)',
  c: 'Site Audit crawl through the API',
};

/** (c)'s heap: as `siteaudit-server` runs it (limitHeapGrowth), or Node's defaults when embedded. */
export type HeapPolicy = 'cli' | 'node';
export const HEAP_LABELS: Record<HeapPolicy, string> = {
  cli: 'as `siteaudit-server` runs (`limitHeapGrowth()`: heap grows by 50 % of its live size)',
  node: "embedded, Node's defaults (heap grows up to 4× its live size)",
};
