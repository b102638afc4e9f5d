import { defineConfig } from 'tsup';

/**
 * ESM (.js) and CJS (.cjs) with their own declarations (.d.ts, .d.cts), matching `exports`.
 * `@siteaudit/schema` (dependency) and zod (optional peer) stay external, so an application that
 * also imports the schema shares one copy. `platform: 'neutral'` keeps Node built-ins out: the SDK
 * must run unchanged in browsers and edge runtimes.
 */
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  target: 'es2022',
  platform: 'neutral',
  sourcemap: true,
  clean: true,
  treeshake: true,
});
