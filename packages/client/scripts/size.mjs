#!/usr/bin/env node
/**
 * Bundle-size budget of the client: bundles src/index.ts as a browser app would (esbuild,
 * minified, tree-shaken, platform neutral), gzips it and fails above LIMIT_BYTES.
 * zod, the zod-based part of @siteaudit/schema and Node built-ins must not be reached at all:
 * they are marked external and reported, which fails the check.
 *
 *   node packages/client/scripts/size.mjs
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** 12 kB, counted as 12,000 bytes (the stricter reading). */
export const LIMIT_BYTES = 12_000;

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * @returns {Promise<{ minified: number, gzip: number, limit: number, forbidden: string[], inputs: string[] }>}
 */
export async function measure() {
  const forbidden = [];
  const result = await build({
    entryPoints: [here('../src/index.ts')],
    bundle: true,
    minify: true,
    treeShaking: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'siteaudit-size-guard',
        setup(b) {
          // The zod-free table, from source so the measure does not depend on a stale dist.
          b.onResolve({ filter: /^@siteaudit\/schema\/operations$/ }, () => ({ path: here('../../schema/src/operations.ts') }));
          b.onResolve({ filter: /^(zod|zod\/.*|@siteaudit\/schema(\/.*)?|node:.*)$/ }, (args) => {
            forbidden.push(`${args.path} (from ${args.importer})`);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  const code = result.outputFiles[0].contents;
  return {
    minified: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    limit: LIMIT_BYTES,
    forbidden,
    inputs: Object.keys(result.metafile.inputs),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await measure();
  const kb = (n) => `${(n / 1000).toFixed(2)} kB`;
  console.log(`@siteaudit/client: ${kb(r.minified)} minified, ${kb(r.gzip)} min+gzip (${r.gzip} bytes; limit ${kb(r.limit)})`);
  if (r.forbidden.length) {
    console.error(`Reached imports that must stay out of the main entry:\n  ${r.forbidden.join('\n  ')}`);
    process.exitCode = 1;
  }
  if (r.gzip > r.limit) {
    console.error(`Over budget by ${r.gzip - r.limit} bytes`);
    process.exitCode = 1;
  }
}
