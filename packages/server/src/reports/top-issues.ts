import type { IssueOccurrence, IssueSummary } from '@siteaudit/schema';
import { SEVERITY_RANK } from './i18n.js';

type Group = IssueSummary['groups'][number];

export interface TopIssue extends Group {
  examples: { url: string; details: string }[];
}

/**
 * The fix list's order (the API's recommendations: errors, warnings, notices, then pages affected,
 * then the score points a fix would win), as the report's source carries it.
 */
export type FixOrder = readonly { name: string }[];

/**
 * In the fix list's order when the report has it (`fixes`), so the PDF, the workbook and the API
 * agree; else, and for a check the list does not hold, most severe first, then the largest, then
 * by name so the order is stable.
 */
export function rankGroups<G extends Group>(groups: readonly G[], fixes?: FixOrder): G[] {
  const position = new Map((fixes ?? []).map((f, i) => [f.name, i]));
  const at = (g: Group) => position.get(g.name) ?? Number.MAX_SAFE_INTEGER;
  return [...groups].sort(
    (a, b) =>
      at(a) - at(b) ||
      (SEVERITY_RANK[a.severity] ?? 9) - (SEVERITY_RANK[b.severity] ?? 9) ||
      b.occurrences - a.occurrences ||
      a.name.localeCompare(b.name),
  );
}

/**
 * Picks the first `count` groups of the summary (most severe, then largest) and gathers up to `examplesPerIssue` distinct URLs
 * for each from the occurrence stream. Memory is bounded by count × examplesPerIssue, and the stream
 * is abandoned as soon as every picked group has its examples, which is usually early.
 */
export async function collectTopIssues(
  summary: IssueSummary,
  issues: () => AsyncIterable<IssueOccurrence>,
  options: { count: number; examplesPerIssue: number; shouldStop?: () => boolean; fixes?: FixOrder },
): Promise<TopIssue[]> {
  const picked: TopIssue[] = rankGroups(summary.groups.filter((g) => g.occurrences > 0), options.fixes)
    .slice(0, options.count)
    .map((g) => ({ ...g, examples: [] }));
  if (picked.length === 0 || options.examplesPerIssue <= 0) return picked;

  const byName = new Map<string, { issue: TopIssue; wanted: number; seen: Set<string> }>();
  for (const issue of picked) {
    if (!byName.has(issue.name)) {
      byName.set(issue.name, { issue, wanted: Math.min(options.examplesPerIssue, issue.occurrences), seen: new Set() });
    }
  }
  let unfilled = byName.size;

  for await (const occurrence of issues()) {
    if (options.shouldStop?.()) break;
    const slot = byName.get(occurrence.name);
    if (!slot || slot.issue.examples.length >= slot.wanted || slot.seen.has(occurrence.url)) continue;
    slot.seen.add(occurrence.url);
    slot.issue.examples.push({ url: occurrence.url, details: occurrence.details });
    if (slot.issue.examples.length >= slot.wanted && --unfilled === 0) break;
  }
  return picked;
}
