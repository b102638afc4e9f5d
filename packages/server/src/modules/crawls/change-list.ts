/**
 * The changes list of a crawl (docs/decisions/crawl-changes.md): kinds in the order of
 * `CHANGE_KINDS`, each in the order its rows were found, on the keyset (kind rank, seq). New and
 * fixed issues and page changes are read from `crawl_changes`; persisting issues straight from
 * `crawl_issues`: the occurrences with a counterpart in the previous crawl (`matchedIn`).
 */
import type { Knex } from 'knex';
import { issueDetailsIn } from '../../reports/issue-details.js';
import { type CrawlChange, type Language, type Severity } from '@siteaudit/schema';
import { CHANGE_KINDS, type ChangeKind } from '@siteaudit/schema/rules';
import { KIND_RANK, matchedIn } from './changes.js';
import type { CrawlRow } from './crawl-row.js';

export interface ChangeRow {
  kind_rank: number;
  seq: number;
  kind: ChangeKind;
  name: string | null;
  severity: Severity | null;
  category: string | null;
  url: string;
  details: string | null;
  status_code: number | null;
  previous_status_code: number | null;
  /** Null for issue changes, and in rows stored before redirect changes were compared. */
  redirect_url: string | null;
  previous_redirect_url: string | null;
}

const COLUMNS = ['kind_rank', 'seq', 'kind', 'name', 'severity', 'category', 'url', 'details', 'status_code', 'previous_status_code', 'redirect_url', 'previous_redirect_url'];

/** Up to `count` changes after the keyset position `after`, kinds and severity filtered. */
export async function changeRows(
  knex: Knex,
  crawl: Pick<CrawlRow, 'id' | 'previous_crawl_id'>,
  filter: { kind?: ChangeKind; severity?: Severity },
  after: [number, number] | null,
  count: number,
): Promise<ChangeRow[]> {
  const kinds = CHANGE_KINDS.filter((k) => (!filter.kind || k === filter.kind) && (!filter.severity || k.startsWith('issue_')));
  const out: ChangeRow[] = [];
  for (const kind of kinds) {
    const rank = KIND_RANK[kind];
    const wanted = count - out.length;
    if (wanted <= 0) break;
    if (after && rank < Number(after[0])) continue;
    const afterSeq = after && rank === Number(after[0]) ? Number(after[1]) : null;
    if (kind === 'issue_persisting') {
      if (!crawl.previous_crawl_id) continue;
      const q = knex('crawl_issues as c').where('c.crawl_id', crawl.id).whereRaw(matchedIn('c'), [crawl.previous_crawl_id, crawl.previous_crawl_id]);
      if (filter.severity) q.andWhere('c.severity', filter.severity);
      if (afterSeq !== null) q.andWhere('c.seq', '>', afterSeq);
      const rows = (await q.orderBy('c.seq').limit(wanted).select('c.seq', 'c.name', 'c.severity', 'c.category', 'c.url', 'c.details')) as Pick<ChangeRow, 'seq' | 'name' | 'severity' | 'category' | 'url' | 'details'>[];
      out.push(...rows.map((r) => ({ ...r, kind_rank: rank, kind, status_code: null, previous_status_code: null, redirect_url: null, previous_redirect_url: null })));
    } else {
      const q = knex('crawl_changes').where({ crawl_id: crawl.id, kind_rank: rank });
      if (filter.severity) q.andWhere('severity', filter.severity);
      if (afterSeq !== null) q.andWhere('seq', '>', afterSeq);
      out.push(...((await q.orderBy('seq').limit(wanted).select(COLUMNS)) as ChangeRow[]));
    }
  }
  return out;
}

/** A change as answered: issue details in the caller's language (stored in English). */
export function toChange(row: ChangeRow, language: Language): CrawlChange {
  return {
    kind: row.kind,
    url: row.url,
    name: row.name,
    severity: row.severity,
    category: row.category,
    details: row.details === null ? null : issueDetailsIn(row.name ?? '', row.details, language),
    status_code: row.status_code === null ? null : Number(row.status_code),
    previous_status_code: row.previous_status_code === null ? null : Number(row.previous_status_code),
    redirect_url: row.redirect_url ?? null,
    previous_redirect_url: row.previous_redirect_url ?? null,
    // The row's nulls follow its kind (CrawlChange is the union of IssueChange and PageChange).
  } as CrawlChange;
}
