import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig, type Options } from 'tsup';

/**
 * The library entry as ESM (.js) and CJS (.cjs) with declarations (.d.ts, .d.cts), matching
 * `exports`, and the `siteaudit-server` bin as ESM only. Every dependency and zod (peer) stays
 * external, `@siteaudit/schema` included, except p-queue in the CJS build (below).
 */
const common: Options = {
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  // import.meta.url in CJS and __dirname in ESM, for code that locates files beside itself.
  shims: true,
};

// The three builds run at once. Only the bin build cleans, and it spares the index.* files the
// other two write; the index builds make no chunks, so nothing else can be caught mid-write.
const library: Options = { ...common, entry: { index: 'src/index.ts' }, dts: true, splitting: false, clean: false };

export default defineConfig([
  { ...library, format: ['esm'] },
  {
    ...library,
    format: ['cjs'],
    // p-queue is ESM only and `require()` of ESM needs Node 20.19 while engines allow 20.17:
    // the CJS build carries its own copy; the ESM build imports the dependency as usual.
    noExternal: ['p-queue'],
  },
  {
    ...common,
    // The thread modules are loaded by path (crawl-threads/pool.ts, modules/logs/parse-runner.ts), beside the library and the bin.
    entry: {
      cli: 'src/cli.ts',
      'crawl-thread': 'src/crawl-threads/crawl-thread.ts',
      'analysis-thread': 'src/crawl-threads/analysis-thread.ts',
      'log-parse-thread': 'src/modules/logs/parse-thread.ts',
    },
    format: ['esm'],
    clean: ['!index.*'],
    // tsup marks an output that starts with a shebang as executable.
    banner: { js: '#!/usr/bin/env node' },
    // The API reference's browser bundle (a build-time asset of @scalar/api-reference, a root
    // devDependency), served at /docs/assets/scalar.js: the published package needs no CDN and
    // no runtime dependency on it. After this build's clean, which would remove it.
    onSuccess: async () => {
      copyFileSync(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'), 'dist/scalar-standalone.js');
    },
  },
]);
