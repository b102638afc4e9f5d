#!/usr/bin/env node
// The `siteaudit-server` command. npm links a workspace's bins when it installs, before any build,
// and skips a bin whose file is missing: so the bin is this committed file, not dist/cli.js.
// An installed package (only dist/ and bin/ are published) runs the build. In a clone it runs the
// build when that is newer than every source file of the server and the schema, else the
// TypeScript source through tsx: the command always matches the code beside it, needs no build,
// and is fast once built (tsx's loader hooks every module: ~0.5 s more per command).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (relative) => fileURLToPath(new URL(relative, import.meta.url));
const source = here('../src/cli.ts');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return newest;
}

function buildIsCurrent() {
  try {
    const built = Math.min(statSync(here('../dist/cli.js')).mtimeMs, statSync(here('../../schema/dist/index.js')).mtimeMs);
    return built >= Math.max(newestSource(here('../src')), newestSource(here('../../schema/src')));
  } catch {
    return false; // not built
  }
}

async function tsx() {
  try {
    return await import('tsx/esm/api');
  } catch {
    return null; // a clone installed without dev dependencies: the build, if there is one
  }
}

const loader = existsSync(source) && !buildIsCurrent() ? await tsx() : null;
if (loader) {
  // The repository's tsconfig maps the workspace packages to their source: nothing to build.
  const tsconfig = here('../../../tsconfig.json');
  loader.register(existsSync(tsconfig) ? { tsconfig } : {});
  await import(new URL('../src/cli.ts', import.meta.url).href);
} else {
  await import('../dist/cli.js');
}
