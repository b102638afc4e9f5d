/**
 * Starts a worker thread on one of this folder's modules: the build's file beside this one, or in
 * a clone (this file is the TypeScript source) the source through tsx's loader, registered in the
 * thread first (a worker's `--import` does not apply to its own entry on Node 20).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export function spawnThread(module: 'crawl-thread' | 'analysis-thread', name: string): Worker {
  const self = import.meta.url;
  const options = { name };
  if (!self.endsWith('.ts')) return new Worker(new URL(`./${module}.js`, self), options);
  // tsx's ESM API by its exports map (require.resolve would give the CommonJS one).
  const manifest = createRequire(self).resolve('tsx/package.json');
  const api = new URL(JSON.parse(readFileSync(manifest, 'utf8')).exports['./esm/api'].import.default, pathToFileURL(manifest)).href;
  const entry = new URL(`./${module}.ts`, self).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
