/**
 * The mock's comparison of two crawls (docs/decisions/crawl-changes.md), on records edited as a
 * changed site would give them: the mock's generated site is the same at every crawl, so the
 * behaviour suite sees only persisting pairs; here every kind of change is made.
 */
import { CHANGE_KINDS, isSiteWideCheck } from '@siteaudit/schema/rules';
import { describe, expect, it } from 'vitest';
import type { CampaignRecord, CrawlRecord } from '../src/db.js';
import { compareCrawls, findingsEvents, recommendationsOf } from '../src/modules/changes.js';
import { generateFindings } from '../src/modules/generate.js';

const campaign = { start_url: 'https://www.example.com/', max_depth: 5, max_urls: 100 } as CampaignRecord;

function record(id: string, edit: (f: ReturnType<typeof generateFindings>) => void = () => undefined): CrawlRecord {
  const findings = generateFindings('00000000-0000-4000-8000-000000000001', campaign);
  edit(findings);
  return { id, blocked: false, page_records: findings.pages, issues: findings.pages.flatMap((p) => p.issues) } as unknown as CrawlRecord;
}

describe('compareCrawls', () => {
  const before = record('before');
  const after = record('after', (f) => {
    f.pages = f.pages.filter((p) => !p.url.endsWith('/missing'));
    const about = f.pages.find((p) => p.url.endsWith('/about'))!;
    about.status_code = 500;
    about.issues = [{ name: 'http_5xx', severity: 'error', category: 'http', url: about.url, details: 'status 500' }];
    f.pages.push({ ...about, url: 'https://www.example.com/new', status_code: 200, issues: [] });
  });

  it('finds new, fixed, gone-with-their-page and persisting occurrences, pages added and removed, and status changes, in the list order', () => {
    const { summary, items } = compareCrawls(after, before);
    expect(summary).toMatchObject({ previous_crawl_id: 'before', basis: 'compared', pages: { added: 1, removed: 1, status_changed: 1, redirect_changed: 0 } });
    const kinds = items.map((i) => i.item.kind);
    expect(kinds).toEqual([...kinds].sort((a, b) => CHANGE_KINDS.indexOf(a) - CHANGE_KINDS.indexOf(b)));
    expect(items.filter((i) => i.item.kind === 'issue_new').map((i) => i.item.name)).toEqual(['http_5xx']);
    // /about's own finding (replaced by the 5xx) and /missing's went with their page (now 5xx, removed): not fixed.
    expect(items.filter((i) => i.item.kind === 'issue_fixed').map((i) => i.item.name)).toEqual([]);
    expect(items.filter((i) => i.item.kind === 'issue_gone_with_page').map((i) => i.item.name)).toEqual(['single_inlink', 'http_4xx']);
    expect(summary.issues.gone_with_page.error + summary.issues.gone_with_page.warning + summary.issues.gone_with_page.info).toBe(2);
    expect(items.find((i) => i.item.kind === 'status_changed')!.item).toMatchObject({ url: 'https://www.example.com/about', status_code: 500, previous_status_code: 200 });
    expect(summary.issues.new.error).toBe(1);
    expect(summary.checks[0]).toMatchObject({ name: 'http_5xx', new: 1 });
  });

  it('lists a page whose redirect changed with its status the same, as the server does: a stub, a redirect pointing elsewhere, a page again', () => {
    const at = (f: ReturnType<typeof generateFindings>, path: string) => f.pages.find((p) => new URL(p.url).pathname === path)!;
    const page = before.page_records.find((p) => p.status_code === 200 && p.is_internal && p.issues.length > 0 && new URL(p.url).pathname !== '/')!;
    const path = new URL(page.url).pathname;
    const moved = record('moved', (f) => {
      // A 200 page turned into a meta-refresh stub; the 301 now points elsewhere.
      at(f, path).redirect_url = 'https://www.example.com/';
      at(f, path).issues = [];
      at(f, '/old-page').redirect_url = 'https://www.example.com/contact';
    });
    const previous = record('previous', (f) => {
      at(f, '/old-page').redirect_url = 'https://www.example.com/';
    });
    const { summary, items } = compareCrawls(moved, previous);
    expect(summary.pages).toEqual({ added: 0, removed: 0, status_changed: 0, redirect_changed: 2 });
    const changed = items.filter((i) => i.item.kind === 'redirect_changed').map((i) => i.item);
    expect(changed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ url: page.url, status_code: 200, previous_status_code: 200, redirect_url: 'https://www.example.com/', previous_redirect_url: null }),
        expect.objectContaining({ url: 'https://www.example.com/old-page', status_code: 301, previous_status_code: 301, redirect_url: 'https://www.example.com/contact', previous_redirect_url: 'https://www.example.com/' }),
      ]),
    );
    // What the page had went with it (a stub is a redirect): not fixed.
    const on = (kind: string) => items.filter((i) => i.item.kind === kind && i.item.url === page.url).length;
    expect([on('issue_gone_with_page'), on('issue_fixed')]).toEqual([page.issues.length, 0]);
    // The stub is a page again: its target before, none now.
    const again = compareCrawls(previous, moved);
    expect(again.items.filter((i) => i.item.kind === 'redirect_changed').map((i) => [i.item.url, i.item.previous_redirect_url, i.item.redirect_url])).toEqual(
      expect.arrayContaining([[page.url, 'https://www.example.com/', null]]),
    );
    // A page whose status changed too is a status change alone.
    const both = record('both', (f) => {
      const p = at(f, path);
      p.status_code = 301;
      p.redirect_url = 'https://www.example.com/';
    });
    const kinds = compareCrawls(both, before).items.filter((i) => i.item.url === page.url && !i.item.kind.startsWith('issue_'));
    expect(kinds.map((i) => [i.item.kind, i.item.previous_redirect_url, i.item.redirect_url])).toEqual([['status_changed', null, 'https://www.example.com/']]);
  });

  it('says why each pillar moved, as the server does: the new 5xx costs the technique score what it moved, less what went with the pages', () => {
    const { summary } = compareCrawls(after, before);
    const technique = summary.health.find((p) => p.key === 'technique')!;
    const a = technique.attribution!;
    expect(a.checks.find((c) => c.name === 'http_5xx')).toMatchObject({ previous_pages: 0, pages: 1, previous_cost: 0 });
    expect(a.checks.find((c) => c.name === 'http_5xx')!.points).toBeLessThan(0);
    // The parts add up, in tenths, to the exact movement, and the published delta is its rounding.
    expect(a.checks.reduce((sum, c) => sum + Math.round(c.points * 10), Math.round(a.other * 10))).toBe(Math.round(a.exact_delta * 10));
    expect(Math.round(a.score_exact) - Math.round(a.previous_score_exact)).toBe(technique.delta);
    expect(a.other).toBe(0);
    // The mock never runs the accessibility rules: nothing to explain.
    expect(summary.health.find((p) => p.key === 'accessibilite')!.attribution).toBeNull();
  });

  it('sends the findings events as the server decides them', () => {
    const crawl = { ...after, comparison: compareCrawls(after, before) } as CrawlRecord;
    const on = (write: Record<string, unknown>) => ({ ...campaign, write_only: write }) as unknown as CampaignRecord;
    expect(findingsEvents(crawl, on({ notify: true, regression_threshold: 'error' }))).toEqual(['signal.detected', 'recommendations.ready']);
    expect(findingsEvents(crawl, on({ notify: true, regression_threshold: 'off' }))).toEqual(['recommendations.ready']);
    expect(findingsEvents(crawl, on({ notify: false, regression_threshold: 'error' }))).toEqual([]);
  });

  it('lists recommendations errors, warnings, notices, then by pages and score points won, in the caller’s language', () => {
    const fixes = recommendationsOf(before, 'fr');
    const rank = { error: 0, warning: 1, info: 2 } as const;
    // A site-wide check is on every page (reported on one URL).
    const affected = (r: { name: string; pages: number }) => (isSiteWideCheck(r.name) ? Infinity : r.pages);
    for (let i = 1; i < fixes.length; i++) {
      const [a, b] = [fixes[i - 1], fixes[i]];
      expect(rank[a.severity] < rank[b.severity] || (a.severity === b.severity && (affected(a) > affected(b) || (affected(a) === affected(b) && a.score_points >= b.score_points)))).toBe(true);
    }
    for (const f of fixes) if (f.severity === 'info') expect(f.score_points).toBe(0);
    expect(fixes.find((f) => f.name === 'broken_internal_link')).toMatchObject({ label: 'Lien interne cassé', advice: 'Faites pointer ces liens vers une URL valide ou supprimez-les.' });
  });
});
