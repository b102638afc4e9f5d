/**
 * The seams of the tree (docs/architecture.md, "Modules"), read from the import statements of the
 * source files:
 * - a module reads another module only through its row files (`*-row.ts`), its `reads.ts` and
 *   its `writes.ts`: never its handlers, jobs or index; anything else it is handed by server.ts as a need;
 * - a module's queries name only the tables it owns (src/store/tables.ts): another area's rows go
 *   through that area's reads and writes;
 * - the core (services, http, jobs, store, events) imports no module: dependencies point from the
 *   modules to the core, never back;
 * - no `index.ts` of a package re-exports with `export *` (nor `export type *`): each names what it makes public;
 * - a test helper used by more than one test folder lives in tests/support (issue #26, "Tests"):
 *   no test folder imports another's files, and tests/support holds no test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS } from '../src/store/tables.js';

const packages = fileURLToPath(new URL('../../', import.meta.url));
const repo = path.dirname(packages);
const testSupport = path.join(repo, 'tests/support');
const serverSrc = path.join(packages, 'server/src');
const modulesDir = path.join(serverSrc, 'modules');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The relative specifiers a file imports or re-exports from (static and dynamic), resolved to .ts paths. */
export function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)].map(
    (m) => m[1] ?? m[2] ?? m[3],
  );
  return specifiers.filter((s) => s.startsWith('.')).map((s) => path.resolve(path.dirname(file), s.replace(/\.js$/, '.ts')));
}

/** The area of a file under modules/ (`crawls` for modules/crawls/run.ts), or null for a shared helper (modules/paging.ts). */
function areaOf(file: string): string | null {
  const parts = path.relative(modulesDir, file).split(path.sep);
  return parts.length > 1 && !parts[0].startsWith('..') ? parts[0] : null;
}

/** What a module may use of another: its rows, its reads and its writes. */
const readable = (file: string) => /-row\.ts$/.test(file) || ['reads.ts', 'writes.ts'].includes(path.basename(file));

export function crossModuleImports(files: string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): string[] {
  const found: string[] = [];
  for (const file of files) {
    const area = areaOf(file);
    if (!area) continue;
    for (const target of importsOf(file, read(file))) {
      const other = areaOf(target);
      if (other && other !== area && !readable(target)) found.push(`${path.relative(serverSrc, file)} -> ${path.relative(serverSrc, target)}`);
    }
  }
  return found;
}

const CORE = ['services.ts', 'http', 'jobs', 'store', 'events'];

export function coreImportsOfModules(files: string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): string[] {
  const found: string[] = [];
  for (const file of files) {
    const top = path.relative(serverSrc, file).split(path.sep)[0];
    if (!CORE.includes(top)) continue;
    for (const target of importsOf(file, read(file))) {
      if (target.startsWith(modulesDir + path.sep)) found.push(`${path.relative(serverSrc, file)} -> ${path.relative(serverSrc, target)}`);
    }
  }
  return found;
}

export function starExports(files: string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): string[] {
  return files.filter((file) => path.basename(file) === 'index.ts' && /(?:^|\n)\s*export\s+(?:type\s+)?\*/.test(read(file))).map((file) => path.relative(packages, file));
}

const TABLES = Object.keys(TABLE_OWNERS).sort((a, b) => b.length - a.length).join('|');
/**
 * How a query names a table: the first argument of a call (`knex('crawls')`, `trx('crawls as c')`,
 * `.join('projects as p', …)`, `.from(…)`, `.into(…)`), or raw SQL (`from crawl_issues d`,
 * `join …`, `update …`, `into …`). Comments are left out.
 */
const TABLE_REFERENCES = [
  new RegExp(`\\(\\s*['"\`](${TABLES})(?:\\s+as\\s+\\w+)?['"\`]`, 'g'),
  new RegExp(`\\b(?:from|join|into|update|table)\\s+(${TABLES})\\b`, 'gi'),
];
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/** The tables a file's queries name. */
export function tablesNamed(text: string): string[] {
  const code = withoutComments(text);
  return [...new Set(TABLE_REFERENCES.flatMap((re) => [...code.matchAll(re)].map((m) => m[1])))].sort();
}

/** Queries of a module on a table another area owns (`file: table (owner)`). */
export function foreignTableQueries(files: string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): string[] {
  const found: string[] = [];
  for (const file of files) {
    const area = areaOf(file);
    if (!area) continue;
    for (const table of tablesNamed(read(file))) {
      const owner = TABLE_OWNERS[table as keyof typeof TABLE_OWNERS];
      if (owner !== area) found.push(`${path.relative(modulesDir, file)}: ${table} (${owner})`);
    }
  }
  return found;
}

/** The test folder of a file: `packages/<p>/test/<dir>` or `tests/<dir>`; the package's test root for a file directly in it. */
function testFolderOf(file: string): string | null {
  const parts = path.relative(repo, file).split(path.sep);
  if (parts[0] === 'packages' && parts[2] === 'test') return parts.slice(0, parts.length > 4 ? 4 : 3).join('/');
  if (parts[0] === 'tests') return parts.slice(0, 2).join('/');
  return null;
}

/**
 * Imports of a test helper of another test folder (`importer -> helper`): such a helper is shared
 * and belongs in tests/support. tests/setup (vitest's global setup) and tests/support are
 * everyone's.
 */
export function crossFolderHelperImports(files: string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): string[] {
  const found: string[] = [];
  for (const file of files) {
    const own = testFolderOf(file);
    for (const target of importsOf(file, read(file))) {
      const other = testFolderOf(target);
      if (other && other !== own && other !== 'tests/support' && other !== 'tests/setup') found.push(`${path.relative(repo, file)} -> ${path.relative(repo, target)}`);
    }
  }
  return found;
}

const serverFiles = sourceFiles(serverSrc);
const testFiles = [...['schema', 'client', 'mock', 'server'].flatMap((p) => sourceFiles(path.join(packages, p, 'test'))), ...sourceFiles(path.join(repo, 'tests'))];
const indexFiles = ['schema', 'client', 'mock', 'server'].flatMap((p) => sourceFiles(path.join(packages, p, 'src')));

describe('module boundaries', () => {
  it('a module imports no other module\'s files but its rows and its reads', () => {
    expect(crossModuleImports(serverFiles)).toEqual([]);
  });

  it('a module queries only the tables it owns (src/store/tables.ts)', () => {
    expect(foreignTableQueries(serverFiles)).toEqual([]);
  });

  it('the core imports no module', () => {
    expect(coreImportsOfModules(serverFiles)).toEqual([]);
  });

  it('no index.ts of a package re-exports with export *', () => {
    expect(starExports(indexFiles)).toEqual([]);
  });

  it('a test helper shared by test folders is in tests/support, which holds no test', () => {
    expect(crossFolderHelperImports(testFiles)).toEqual([]);
    expect(sourceFiles(testSupport).filter((f) => f.endsWith('.test.ts'))).toEqual([]);
  });

  // The checks themselves, on made-up files: a check that finds nothing is worth nothing.
  it('finds a handler imported across modules, a module imported by the core, and an export *', () => {
    const files: Record<string, string> = {
      [path.join(modulesDir, 'exports/handlers.ts')]: "import { findCrawl } from '../crawls/handlers.js';\nimport { toCrawl } from '../crawls/crawl-row.js';",
      [path.join(modulesDir, 'scorecard/pillars.ts')]: "import type { X } from '../logs/reads.js';\nconst y = await import('../logs/store.js');",
      [path.join(serverSrc, 'services.ts')]: "import type { QuotaReader } from './modules/account/usage.js';",
      [path.join(packages, 'schema/src/index.ts')]: "export { a } from './a.js';\nexport * from './b.js';",
      [path.join(packages, 'mock/src/index.ts')]: "export type { A } from './a.js';\nexport type * from './b.js';",
    };
    const read = (file: string) => files[file];
    expect(crossModuleImports(Object.keys(files), read)).toEqual(['modules/exports/handlers.ts -> modules/crawls/handlers.ts', 'modules/scorecard/pillars.ts -> modules/logs/store.ts']);
    expect(coreImportsOfModules(Object.keys(files), read)).toEqual(['services.ts -> modules/account/usage.ts']);
    expect(starExports(Object.keys(files), read)).toEqual(['schema/src/index.ts', 'mock/src/index.ts']);
  });

  it('finds a query on a table of another area, in knex calls, joins and raw SQL, not in comments or names', () => {
    const files: Record<string, string> = {
      [path.join(modulesDir, 'projects/handlers.ts')]: "await trx('campaigns').insert(row);\nawait trx('projects').insert(p);",
      [path.join(modulesDir, 'exports/handlers.ts')]: "knex('exports as e').join('crawls as c', 'c.id', 'e.crawl_id');",
      [path.join(modulesDir, 'scorecard/pillars.ts')]: "// reads from log_imports\nconst q = `select 1 from search_console_daily d`;\nassertIncluded(plans, plan, 'crawls.max_urls');",
      [path.join(modulesDir, 'campaigns/index.ts')]: "defineModule({ name: 'campaigns', needs: ['crawls'] });",
    };
    expect(foreignTableQueries(Object.keys(files), (file) => files[file])).toEqual([
      'projects/handlers.ts: campaigns (campaigns)',
      'exports/handlers.ts: crawls (crawls)',
      'scorecard/pillars.ts: search_console_daily (search-console)',
    ]);
  });

  it('finds a test importing a helper of another test folder, not one of its own or of tests/support', () => {
    const files: Record<string, string> = {
      [path.join(packages, 'server/test/db/a.test.ts')]: "import { x } from './support/x.js';\nimport { h } from '../../../../tests/support/harness.js';",
      [path.join(packages, 'server/test/net/b.test.ts')]: "import { r } from '../delivery/receiver.js';",
      [path.join(repo, 'tests/hostile-input/c.test.ts')]: "import { s } from '../fuzz/suite.js';\nimport { d } from '../setup/scratch.js';",
    };
    expect(crossFolderHelperImports(Object.keys(files), (file) => files[file])).toEqual([
      'packages/server/test/net/b.test.ts -> packages/server/test/delivery/receiver.ts',
      'tests/hostile-input/c.test.ts -> tests/fuzz/suite.ts',
    ]);
  });
});
