/** Top issues: the largest groups, a few distinct example URLs each, and an early stop. */
import type { IssueOccurrence, IssueSummary } from '@siteaudit/schema';
import { describe, expect, it } from 'vitest';
import { collectTopIssues } from '../../src/reports/index.js';

const summary: IssueSummary = {
  crawl_id: '6f1c2a9e-4b7d-4c3e-9a51-2d8e7f0b1c34',
  totals: { error: 5, warning: 3, info: 100 },
  protection_occurrences: 0,
  groups: [
    { name: 'small_warning', label: 'small warning', severity: 'warning', category: 'content', occurrences: 3, pages: 3, templates: [] },
    { name: 'big_info', label: 'big info', severity: 'info', category: 'content', occurrences: 100, pages: 100, templates: [] },
    { name: 'tie_info', label: 'tie info', severity: 'info', category: 'links', occurrences: 5, pages: 5, templates: [] },
    { name: 'tie_error', label: 'tie error', severity: 'error', category: 'links', occurrences: 5, pages: 5, templates: [] },
    { name: 'empty', label: 'empty', severity: 'error', category: 'links', occurrences: 0, pages: 0, templates: [] },
  ],
};

function occurrence(name: string, url: string): IssueOccurrence {
  const group = summary.groups.find((g) => g.name === name)!;
  return { name, severity: group.severity, category: group.category, url, details: `${name} on ${url}` };
}

describe('collectTopIssues', () => {
  it('picks the most severe groups, then the largest, with distinct example URLs', async () => {
    const stream = [
      occurrence('big_info', 'https://a.example/1'),
      occurrence('big_info', 'https://a.example/1'), // same URL twice: one example
      occurrence('tie_error', 'https://a.example/2'),
      occurrence('big_info', 'https://a.example/3'),
      occurrence('small_warning', 'https://a.example/4'),
      occurrence('big_info', 'https://a.example/5'),
    ];
    const top = await collectTopIssues(summary, async function* () {
      yield* stream;
    }, { count: 3, examplesPerIssue: 2 });
    // A notice 20 times more frequent still comes after the error and the warning.
    expect(top.map((t) => t.name)).toEqual(['tie_error', 'small_warning', 'big_info']);
    expect(top[0].examples.map((e) => e.url)).toEqual(['https://a.example/2']);
    expect(top[1].examples.map((e) => e.url)).toEqual(['https://a.example/4']);
    expect(top[2].examples.map((e) => e.url)).toEqual(['https://a.example/1', 'https://a.example/3']);
    expect(top[2].examples[0].details).toBe('big_info on https://a.example/1');
  });

  it('stops reading once every picked group has its examples', async () => {
    let yielded = 0;
    let closed = false;
    const top = await collectTopIssues(summary, async function* () {
      try {
        for (let i = 0; i < 1_000_000; i++) {
          yielded += 1;
          yield occurrence(i % 2 ? 'small_warning' : 'tie_error', `https://a.example/${i}`);
        }
      } finally {
        closed = true;
      }
    }, { count: 2, examplesPerIssue: 3 });
    expect(top.map((t) => t.examples.length)).toEqual([3, 3]);
    expect(yielded).toBe(6);
    expect(closed).toBe(true);
  });

  it('does not open the stream when there is nothing to illustrate', async () => {
    let opened = false;
    const none = { ...summary, groups: [summary.groups[4]] };
    const top = await collectTopIssues(none, () => {
      opened = true;
      return (async function* () {})();
    }, { count: 10, examplesPerIssue: 5 });
    expect(top).toEqual([]);
    expect(opened).toBe(false);
  });
});
