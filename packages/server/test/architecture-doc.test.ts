/**
 * docs/architecture.md names files (`crawls/reads.ts`, `src/store/tables.ts`, `.dependency-cruiser.cjs`…):
 * each must exist, so the document does not drift from the tree (issue #39). A name is matched by
 * the end of a path, as the document writes it relative to the folder it is speaking of.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const SKIP = new Set(['node_modules', '.git', 'dist', 'coverage']);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.split(path.sep).some((part) => SKIP.has(part)))
    .map((entry) => path.relative(repo, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** The file names a Markdown text quotes in backticks (`…ts`, `…cjs`, `…md`), placeholders (`<thing>-job.ts`) aside. */
export function namedFiles(text: string): string[] {
  return [...new Set([...text.matchAll(/`([\w./-]+\.(?:ts|cjs|mjs|md))`/g)].map((m) => m[1].replace(/^\.\//, '')))].sort();
}

describe('docs/architecture.md', () => {
  it('names only files that exist', () => {
    const tree = [...['packages', 'docs', 'tests', 'scripts', '.ci'].flatMap((dir) => filesUnder(path.join(repo, dir))), ...readdirSync(repo)];
    const missing = namedFiles(readFileSync(path.join(repo, 'docs/architecture.md'), 'utf8')).filter((name) => !tree.some((file) => file === name || file.endsWith(`/${name}`)));
    expect(missing).toEqual([]);
  });

  it('reads a quoted file name, not a placeholder', () => {
    expect(namedFiles('see `crawls/reads.ts`, `<thing>-job.ts` and `./x.md`')).toEqual(['crawls/reads.ts', 'x.md']);
  });
});
