/**
 * Our broken-link set against linkinator's on the same fixture site. linkinator checks every
 * URL a page references (a, link rel=canonical/alternate, img, meta content…), so ours is the
 * union of the targets of broken_internal_link, canonical_to_error and hreflang_bad_target. The
 * one deliberate difference: a firewall challenge page (503) is broken to linkinator, and a
 * protection page to us, never a broken link (nor are the links inside it).
 */
import { LinkChecker, LinkState } from 'linkinator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from './fixture-site.js';
import { crawl } from '../../../../tests/support/crawler.js';

const LINK_ISSUES = new Set(['broken_internal_link', 'canonical_to_error', 'hreflang_bad_target']);

describe('broken links compared with linkinator', () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startFixtureSite();
  });
  afterAll(() => site.close());

  it('finds the same broken internal URLs', async () => {
    const escaped = site.externalOrigin.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const checker = new LinkChecker();
    const linkinator = await checker.check({
      path: `${site.origin}/`,
      recurse: true,
      concurrency: 10,
      timeout: 10_000,
      linksToSkip: [`^${escaped}`, '^http://127\\.0\\.0\\.1:9/'],
    });
    const { issues, pages } = await crawl(`${site.origin}/`);
    const protection = new Set(pages.filter((p) => p.protection).map((p) => p.url));
    // linkinator also follows the links inside the challenge page; those are not the site's.
    const theirs = new Set(
      linkinator.links
        .filter((l) => l.state === LinkState.BROKEN && !(l.parent && protection.has(new URL(l.parent).href)))
        .map((l) => new URL(l.url).href),
    );
    const ours = new Set(
      issues
        .filter((i) => LINK_ISSUES.has(i.name))
        .map((i) => /https?:\/\/\S+?(?=:? |$)/.exec(i.details)?.[0])
        .filter((u): u is string => u !== undefined),
    );

    expect([...protection]).toEqual([`${site.origin}/challenge`]);
    expect(ours.size).toBeGreaterThan(3);
    expect([...ours].sort()).toEqual([...theirs].filter((u) => !protection.has(u)).sort());
  });
});
