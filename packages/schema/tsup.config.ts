import { defineConfig } from 'tsup';

/**
 * ESM (.js) and CJS (.cjs) with their own declarations (.d.ts, .d.cts), one per `exports` entry.
 * zod (peer) and zod-to-openapi (dependency) stay external: a second copy of zod would break
 * `instanceof` checks and `.meta()` registries in the user's program.
 */
export default defineConfig({
  entry: { index: 'src/index.ts', rules: 'src/rules/index.ts', pipeline: 'src/pipeline/index.ts', operations: 'src/operations.ts', openapi: 'src/openapi.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  target: 'node20',
  platform: 'neutral',
  sourcemap: true,
  clean: true,
  // Each entry stands alone so `./operations` never drags zod into a browser bundle.
  splitting: true,
  treeshake: true,
});
