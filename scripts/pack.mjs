#!/usr/bin/env node
/**
 * `npm run pack [-- <directory>]`: installable tarballs of the four packages, for a project of
 * yours before they are published. Writes `siteaudit-{schema,client,mock,server}-<version>.tgz`
 * into <directory> (default ./packages-dist), from the current build (`npm run build` first if you
 * changed a source file).
 *
 * client, mock and server depend on `@siteaudit/schema` at the same version: install the schema's
 * tarball in the same command as the others and npm takes it for theirs (it is not on a registry
 * yet). The script prints that command.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const destination = path.resolve(process.argv[2] ?? path.join(root, 'packages-dist'));
const PACKAGES = ['schema', 'client', 'mock', 'server'];

mkdirSync(destination, { recursive: true });
const written = {};
for (const name of PACKAGES) {
  const dir = path.join(root, 'packages', name);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  // Each internal dependency must be the version packed beside it, or npm would look for it on a registry.
  for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
    if (!dep.startsWith('@siteaudit/')) continue;
    const other = JSON.parse(readFileSync(path.join(root, 'packages', dep.slice('@siteaudit/'.length), 'package.json'), 'utf8'));
    if (range !== other.version) throw new Error(`${manifest.name} depends on ${dep}@${range}, but ${other.version} is packed`);
  }
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const [{ filename }] = JSON.parse(out);
  written[name] = path.join(destination, filename);
  console.log(`${manifest.name}@${manifest.version}  ${written[name]}`);
}

console.log(`\nIn your project, install the schema with what you use of the others, in one command:`);
console.log(`  npm install ${written.schema} ${written.client}`);
console.log(`  npm install --save-dev ${written.schema} ${written.mock} msw`);
console.log(`  npm install ${written.schema} ${written.server}`);
