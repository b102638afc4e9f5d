import { defineConfig } from 'tsup';

/**
 * ESM (.js) and CJS (.cjs) with their own declarations (.d.ts, .d.cts), matching `exports`.
 * msw and zod are peers and `@siteaudit/schema` a dependency: all stay external, so the handlers
 * use the test suite's own msw instance (a second copy would never see `server.listen()`).
 */
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  target: 'es2022',
  // msw handlers run in Node test runners and in browsers alike.
  platform: 'neutral',
  sourcemap: true,
  clean: true,
  treeshake: true,
});
