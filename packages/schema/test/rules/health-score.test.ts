import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkShare, healthScore, healthScoreExact, isHtmlPage, maxCheckLoss } from '../../src/rules/health-score.js';
import { checkBasis } from '../../src/rules/crawl-changes.js';
import { CHECKS } from '../../src/rules/issue-catalogue.js';

const severity = fc.constantFrom('error' as const, 'warning' as const, 'info' as const);
const basis = fc.constantFrom('page' as const, 'url' as const, 'site' as const);

describe('health score (docs/health-score.md)', () => {
  it('scores an error on every page 70, nothing 100, no pages null', () => {
    expect(healthScore({ pages: 100, htmlPages: 100, checks: [{ severity: 'error', pages: 100, basis: 'page' }] })).toBe(70);
    expect(healthScore({ pages: 100, htmlPages: 100, checks: [] })).toBe(100);
    expect(healthScore({ pages: 10, htmlPages: 10, checks: [{ severity: 'info', pages: 10, basis: 'site' }] })).toBe(100);
    expect(healthScore({ pages: 0, htmlPages: 0, checks: [] })).toBeNull();
  });

  it('counts a site-wide check as firing on every page', () => {
    expect(healthScore({ pages: 100, htmlPages: 60, checks: [{ severity: 'warning', pages: 1, basis: 'site' }] })).toBe(
      healthScore({ pages: 100, htmlPages: 60, checks: [{ severity: 'warning', pages: 100, basis: 'url' }] }),
    );
  });

  it('stays within 0..100 and never rises when a check fires on more pages (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.array(fc.record({ severity, pages: fc.nat(1000), basis }), { maxLength: 8 }), fc.nat(1000), fc.nat(1000), (pages, checks, more, html) => {
        const htmlPages = Math.min(html, pages);
        const score = healthScoreExact({ pages, htmlPages, checks })!;
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(100);
        if (checks.length === 0) return;
        const worse = checks.map((c, i) => (i === 0 ? { ...c, pages: c.pages + more } : c));
        expect(healthScoreExact({ pages, htmlPages, checks: worse })!).toBeLessThanOrEqual(score);
      }),
    );
  });

  it('one template decision (a check on every page of any size of site) costs at most its weight: 29.5 points for an error, 11.3 for a warning, none for info (property)', () => {
    expect([maxCheckLoss('error'), maxCheckLoss('warning'), maxCheckLoss('info')].map((x) => Math.round(x * 10) / 10)).toEqual([29.5, 11.3, 0]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.nat(1_000_000), severity, basis, fc.array(fc.record({ severity, pages: fc.nat(1000), basis }), { maxLength: 6 }), (pages, on, s, b, others) => {
        const scored = { pages, htmlPages: Math.ceil(pages / 2) };
        const without = healthScoreExact({ ...scored, checks: others })!;
        const withTemplate = healthScoreExact({ ...scored, checks: [...others, { severity: s, pages: Math.min(on, pages), basis: b }] })!;
        // Multiplicative: the decision takes at most its share of what is left.
        expect(without - withTemplate).toBeLessThanOrEqual((maxCheckLoss(s) * without) / 100 + 1e-9);
      }),
    );
  });

  it('takes a page check’s share of the HTML pages answering 2xx and a URL check’s of every scored URL', () => {
    // 100 URLs crawled: 40 HTML pages answering 200, 60 that answer 404 or are PDFs.
    const scored = { pages: 100, htmlPages: 40 };
    expect(checkShare('page', 40, scored)).toBe(1);
    expect(checkShare('url', 40, scored)).toBe(0.4);
    expect(checkShare('site', 0, scored)).toBe(1);
    expect(checkShare('page', 0, { pages: 5, htmlPages: 0 })).toBe(0);
    // A description missing on every HTML page costs what a template decision does, whatever else was crawled.
    expect(healthScore({ ...scored, checks: [{ severity: 'warning', pages: 40, basis: 'page' }] })).toBe(Math.round(100 - maxCheckLoss('warning')));
  });

  it('a page check’s cost does not fall when URLs that are not HTML pages are added (property: 404s and PDFs do not dilute it)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.nat(10_000), fc.nat(10_000), severity, (html, on, others, s) => {
        const check = { severity: s, pages: Math.min(on, html), basis: 'page' as const };
        const before = healthScoreExact({ pages: html, htmlPages: html, checks: [check] })!;
        expect(healthScoreExact({ pages: html + others, htmlPages: html, checks: [check] })).toBe(before);
      }),
    );
  });

  it('judges every catalogued check on the site, its URLs or its HTML pages, the statuses and redirects on URLs', () => {
    for (const name of Object.keys(CHECKS)) expect(['site', 'url', 'page']).toContain(checkBasis(name));
    for (const name of ['http_4xx', 'http_5xx', 'fetch_failed', 'redirect_chain', 'blocked_by_robots', 'sitemap_bad_url']) expect(checkBasis(name)).toBe('url');
    for (const name of ['title_missing', 'description_missing', 'http_page', 'broken_internal_link', 'image_missing_alt']) expect(checkBasis(name)).toBe('page');
    expect(checkBasis('robots_txt_missing')).toBe('site');
    expect(checkBasis('a11y_color-contrast')).toBe('page');
  });

  it('counts as an HTML page an internal page answering 2xx with HTML, fetched without error', () => {
    const page = { is_internal: true, error_type: null, status_code: 200, content_type: 'Text/HTML; charset=utf-8' };
    expect(isHtmlPage(page)).toBe(true);
    expect(isHtmlPage({ ...page, content_type: 'application/xhtml+xml' })).toBe(true);
    expect(isHtmlPage({ ...page, content_type: 'application/pdf' })).toBe(false);
    expect(isHtmlPage({ ...page, status_code: 404 })).toBe(false);
    expect(isHtmlPage({ ...page, status_code: 301 })).toBe(false);
    expect(isHtmlPage({ ...page, error_type: 'protection' })).toBe(false);
    expect(isHtmlPage({ ...page, is_internal: false })).toBe(false);
    expect(isHtmlPage({ ...page, content_type: null })).toBe(false);
  });
});
