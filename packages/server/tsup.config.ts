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
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    clean: ['!index.*'],
    // tsup marks an output that starts with a shebang as executable.
    banner: { js: '#!/usr/bin/env node' },
  },
]);
