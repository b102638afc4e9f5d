/**
 * The import rules of the packages' sources, checked by `npm run lint` (`npm run lint:imports`):
 * - no circle, type imports included: a circle makes the files in it one unit to read and change;
 * - the crawler is a library: nothing under server/src/crawler/ imports the server outside it
 *   (but the abort error and the address guard, leaves that import nothing), and the rest of the server imports the crawler through its index only
 *   (docs/architecture.md, "Engines").
 * packages/server/test/import-rules.test.ts runs these rules on fixtures that break each.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle: move what both sides need into a file of its own that imports neither.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'crawler-is-a-library',
      comment:
        'The crawler imports nothing of the server outside src/crawler/ but two leaves that import nothing of it (abort.ts, net/): hand it the rest (CrawlOptions).',
      severity: 'error',
      from: { path: '^packages/server/src/crawler/' },
      to: { path: '^packages/server/src/', pathNot: '^packages/server/src/(crawler/|abort\\.ts$|net/)' },
    },
    {
      name: 'crawler-through-its-index',
      comment: 'Outside the crawler, import it from src/crawler/index.ts: its inside may move.',
      severity: 'error',
      from: { path: '^packages/server/src/', pathNot: '^packages/server/src/crawler/' },
      to: { path: '^packages/server/src/crawler/', pathNot: '^packages/server/src/crawler/index\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a circle closed by a type is still a circle to read.
    tsPreCompilationDeps: true,
  },
};
