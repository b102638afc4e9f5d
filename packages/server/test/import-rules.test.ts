/**
 * `npm run lint` checks the import rules of .dependency-cruiser.cjs on the packages' sources (no
 * circle, the crawler a library imported through its index). A check that finds nothing is worth
 * nothing: here the circle rule finds a circle, two fixture files that import each other's types
 * (fixtures/import-circle).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The rules' violations on some folders, as `rule: from -> to`. */
function violations(...folders: string[]): string[] {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), '--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...folders], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (!run.stdout) throw new Error(`dependency-cruiser printed nothing: ${run.stderr}`);
  const { summary } = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  return summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

it('finds a circle closed by type imports', () => {
  expect(violations('packages/server/test/fixtures/import-circle')).toEqual([
    'no-circular: packages/server/test/fixtures/import-circle/crawl.ts -> packages/server/test/fixtures/import-circle/page.ts',
  ]);
}, 60_000);
