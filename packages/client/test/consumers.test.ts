/**
 * The built packages as users load them: a CommonJS project with require() and an ES module
 * project with import, each in a plain Node process (no bundler, no aliases). Needs `npm run
 * build` first, which CI runs before the tests.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const built = ['schema', 'client', 'mock', 'server'].every((p) => existsSync(`${root}/packages/${p}/dist/index.js`));
const run = (file: string) => execFileSync(process.execPath, [`${root}/tests/consumers/${file}`], { cwd: root, encoding: 'utf8', timeout: 60_000 });

describe.skipIf(!built && process.env.CI !== 'true')('consumers of the built packages (run npm run build first)', () => {
  it('loads from CommonJS with require()', () => {
    expect(run('consumer.cjs')).toContain('cjs ok');
  });
  it('loads from an ES module with import, and calls a real server', () => {
    expect(run('consumer.mjs')).toContain('esm ok');
  });
});
