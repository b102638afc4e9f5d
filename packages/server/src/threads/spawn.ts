/**
 * Starts a worker thread on one of the server's thread modules: the build beside the calling
 * module, or in a clone (the caller is TypeScript source) the source through tsx's loader,
 * registered in the thread first (a worker's `--import` does not apply to its own entry on Node 20).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * `self` is the caller's import.meta.url; `source` the thread module's path relative to it in the
 * sources, `built` its file name beside the bundle (tsup.config.ts).
 */
export function spawnThread(self: string, source: string, built: string, name: string, resourceLimits?: ResourceLimits): Worker {
  const options = { name, resourceLimits };
  if (!self.endsWith('.ts')) return new Worker(new URL(`./${built}`, self), options);
  // tsx's ESM API by its exports map (require.resolve would give the CommonJS one).
  const manifest = createRequire(self).resolve('tsx/package.json');
  const api = new URL(JSON.parse(readFileSync(manifest, 'utf8')).exports['./esm/api'].import.default, pathToFileURL(manifest)).href;
  const entry = new URL(source, self).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
