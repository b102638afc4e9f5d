/**
 * The contract against the spec itself: every endpoint row of the spec's tables must be an
 * operation of the contract with the same HTTP rules, and nothing else may be.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contract, templatePath, type ContractEntry } from '../src/index.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
// The spec lives beside the repository (../shared), as on every machine of the team and in CI;
// SITEAUDIT_SPEC points elsewhere. Without it the check cannot run, and says so (CI sets it up).
const specPath = process.env.SITEAUDIT_SPEC ?? path.resolve(repoRoot, '..', 'shared/spec/site-audit-api.md');
const specFound = existsSync(specPath) || process.env.CI === 'true';

interface SpecRow {
  section: string;
  method: string;
  path: string;
  scope: string;
  cost: string;
  idempotency: string;
  success: number;
}

/** Reads every table of the "## Endpoints" chapter whose header starts with Method | Path. */
function readEndpointRows(markdown: string): SpecRow[] {
  const chapter = markdown.split(/^## /m).find((c) => c.startsWith('Endpoints'));
  if (!chapter) throw new Error(`No "## Endpoints" chapter in ${specPath}`);
  const rows: SpecRow[] = [];
  let section = '';
  let header: string[] | null = null;
  const cells = (line: string) => line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  for (const line of chapter.split('\n')) {
    if (line.startsWith('### ')) {
      section = line.slice(4).trim();
      header = null;
    } else if (!line.startsWith('|')) {
      header = null;
    } else if (!header) {
      header = cells(line);
    } else if (!/^\|[\s|:-]+\|$/.test(line.trim()) && header[0] === 'Method') {
      const row = Object.fromEntries(header.map((h, i) => [h, cells(line)[i]]));
      rows.push({
        section,
        method: row.Method,
        path: row.Path,
        scope: row.Scope,
        cost: row.Cost,
        // The Account table has no Idempotency-Key column: none of its reads takes one.
        idempotency: row['Idempotency-Key'] ?? '-',
        success: Number(row.Success),
      });
    }
  }
  return rows;
}

const rows = specFound ? readEndpointRows(readFileSync(specPath, 'utf8')) : [];
// Extensions (marked `extension`, docs/decisions/logs.md) are ours, beside the spec's operations.
const entries = (Object.values(contract) as ContractEntry[]).filter((e) => !e.extension);
const key = (method: string, p: string) => `${method} ${p}`;
const byRoute = new Map(entries.map((e) => [key(e.method, templatePath(e.path)), e]));

describe.skipIf(!specFound)('contract against the spec endpoint tables (needs ../shared/spec)', () => {
  it('reads 40 endpoint rows from the spec', () => {
    expect(rows).toHaveLength(40);
  });

  it('has exactly the operations of the spec, and the extensions marked as such', () => {
    const spec = entries.filter((e) => !e.extension);
    expect(spec).toHaveLength(40);
    expect(spec.map((e) => key(e.method, templatePath(e.path))).sort()).toEqual(rows.map((r) => key(r.method, r.path)).sort());
    // Every extension names its decision record (docs/decisions/crawl-changes.md…).
    for (const e of entries.filter((x) => x.extension)) expect(e.extension, e.id).toMatch(/^docs\/decisions\/[a-z-]+\.md$/);
  });

  it('counts the operations of each section', () => {
    const counts: Record<string, number> = {};
    for (const r of rows) counts[r.section] = (counts[r.section] ?? 0) + 1;
    expect(counts).toEqual({
      Account: 3,
      Projects: 6,
      Campaigns: 5,
      Crawls: 8,
      Exports: 3,
      'Rank tracking and Search Console': 7,
      'Webhooks (owners and admins only)': 8,
    });
  });

  describe.each(rows)('$method $path', (row) => {
    const entry = byRoute.get(key(row.method, row.path));

    it('exists in the contract', () => {
      expect(entry, `${row.method} ${row.path} is missing from the contract`).toBeDefined();
    });

    it('has the spec scope and cost', () => {
      // "see note": the spec leaves them open (docs/decisions/crawl-launch.md), checked below.
      if (row.scope === 'see note') return;
      expect(entry?.scope).toBe(row.scope === 'none' ? null : row.scope);
      expect(entry?.cost).toBe(Number(row.cost));
    });

    it('has the spec Idempotency-Key mode and success status', () => {
      expect(entry?.idempotency).toBe(row.idempotency === '-' ? 'none' : row.idempotency);
      expect(entry?.status).toBe(row.success);
    });
  });

  it('decides the crawl launch scope and cost the spec leaves open', () => {
    const row = rows.find((r) => r.method === 'POST' && r.path === '/v1/campaigns/{campaign}/crawls');
    expect(row).toMatchObject({ scope: 'see note', cost: 'see note' });
    expect(contract.launchCrawl).toMatchObject({ scope: 'crawls:write', cost: 1, idempotency: 'required', status: 202 });
  });

  it('marks every webhook operation as reserved to owners and admins, and only those', () => {
    for (const e of entries) expect(Boolean(e.adminOnly), e.id).toBe(e.path.startsWith('/v1/webhooks'));
  });

  it('gives each operation a unique SDK location', () => {
    const locations = entries.map((e) => e.sdk.join('.'));
    expect(new Set(locations).size).toBe(locations.length);
  });

  it('declares a response schema for every operation except deletions and the file download', () => {
    for (const e of entries) {
      expect(e.response === null, e.id).toBe(e.kind === 'empty' || e.kind === 'file');
      expect(e.kind === 'empty', e.id).toBe(e.status === 204);
    }
  });
});
