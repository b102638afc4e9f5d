#!/usr/bin/env node
// The `siteaudit-server` command. npm links a workspace's bins when it installs, before any build,
// and skips a bin whose file is missing: so the bin is this committed file. In a clone (src/ is
// here, tsx installed) it runs the TypeScript source, so the command always matches the code
// beside it and needs no build; an installed package (only dist/ and bin/ are published) runs the build.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = new URL('../src/cli.ts', import.meta.url);
const tsconfig = fileURLToPath(new URL('../../../tsconfig.json', import.meta.url));

async function tsx() {
  if (!existsSync(source)) return null;
  try {
    return await import('tsx/esm/api');
  } catch {
    return null; // a clone installed without dev dependencies: the build, if there is one
  }
}

const loader = await tsx();
if (loader) {
  // The repository's tsconfig maps the workspace packages to their source: nothing to build.
  loader.register(existsSync(tsconfig) ? { tsconfig } : {});
  await import(source.href);
} else {
  await import('../dist/cli.js');
}
