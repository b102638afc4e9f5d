/** Reads a crawl for the renderers, streaming pages and issues in keyset chunks. */
import type { Knex } from 'knex';
import type { IssueOccurrence } from '@siteaudit/schema';
import type { ExportSource, HealthPoint, ReportBranding, ReportPage, ReportPillar } from '../../reports/index.js';
import { json } from '../../store/database.js';
import {
  changeRows,
  changesSummary,
  crawlById,
  crawlIssues,
  crawlPageSpeed,
  crawlPages,
  type CrawlRow,
  earlierComparableScores,
  issueSummary,
  pageErrors,
  recommendations,
  toChange,
} from '../crawls/reads.js';
import { projectIdentity } from '../projects/reads.js';
import { CONTENT_AXES, localiseCrawlError, readLogo, TECHNIQUE_AXES } from '@siteaudit/schema/rules';

/** `crawl.site_unreachable: The site…` → `The site…`: the report speaks to the client, codes are for the API. */
const withoutCode = (error: string) => error.replace(/^[a-z_]+\.[a-z_]+: /, '');
import { scorecardPillars } from '../scorecard/reads.js';
import { logsSource } from './logs-source.js';

const CHUNK = 1000;
/** Crawls in the report's health score chart, this one included. */
export const HISTORY_CRAWLS = 12;

/**
 * The issue categories each pillar's score is computed from (docs/decisions/scorecard.md): the
 * technique pillar is the crawl's health score, which counts the content checks too, so its
 * "what to fix" lists them as well.
 */
const PILLAR_CATEGORIES: Record<string, readonly string[]> = {
  technique: [...TECHNIQUE_AXES, ...CONTENT_AXES],
  contenu: CONTENT_AXES,
  accessibilite: ['accessibility'],
};

/**
 * The health score of this crawl and of the project's comparable crawls before it (completed,
 * settled, same settings: the `config_hash` that makes crawls comparable), oldest first.
 */
async function healthHistory(knex: Knex, crawl: CrawlRow): Promise<HealthPoint[]> {
  const earlier = await earlierComparableScores(knex, crawl, HISTORY_CRAWLS - 1);
  const point = (id: string, finished: string | Date | null, score: number | null): HealthPoint => ({
    crawl_id: id,
    finished_at: new Date(finished ?? crawl.created_at).toISOString(),
    health_score: score === null ? null : Math.round(Number(score)),
  });
  return [...earlier.reverse().map((c) => point(c.id, c.finished_at, c.health_score)), point(crawl.id, crawl.finished_at, crawl.health_score)];
}

/** What changed since the previous comparable crawl, every change streamed in keyset chunks. */
async function changesSource(knex: Knex, crawl: CrawlRow): Promise<ExportSource['changes']> {
  const summary = changesSummary(crawl);
  const previous = summary.previous_crawl_id ? await crawlById(knex, summary.previous_crawl_id) : undefined;
  return {
    summary,
    previousFinishedAt: previous?.finished_at ?? null,
    async *items() {
      let after: [number, number] | null = null;
      for (;;) {
        const rows = await changeRows(knex, crawl, {}, after, CHUNK);
        const errors = await pageErrors(knex, crawl.id, summary.previous_crawl_id, rows);
        for (const row of rows) {
          const error = errors.get(`${row.kind_rank}:${row.seq}`);
          yield error ? { ...toChange(row, 'en'), error_type: error.error, previous_error_type: error.previous } : toChange(row, 'en');
        }
        if (rows.length < CHUNK) return;
        const last = rows[rows.length - 1];
        after = [last.kind_rank, last.seq];
      }
    },
  };
}

export interface ExportSourceOptions {
  /** Whether the team's plan includes Search Console (the acquisition pillar). */
  searchConsoleInPlan?: boolean;
  /** Whether this server synchronises Search Console (the acquisition pillar's reason); default true. */
  searchConsoleSynchronises?: boolean;
  /** The time the scorecard is read at (the logs pillar looks back from it); default now. */
  now?: Date;
  /** The export's cover branding as stored (JSON of the request's `branding`), or null. */
  branding?: string | null;
}

/** The stored branding, its logo decoded (validated when requested; an unreadable one is left out). */
function reportBranding(stored: string | null | undefined): ReportBranding | undefined {
  if (!stored) return undefined;
  const value = json<{ agency_name?: string; logo?: string }>(stored, {});
  const logo = value.logo ? readLogo(value.logo) : null;
  return { agencyName: value.agency_name ?? null, logo: logo && !('error' in logo) ? { type: logo.type, bytes: logo.bytes } : null };
}

export async function exportSource(knex: Knex, crawl: CrawlRow, language: 'fr' | 'en', options: ExportSourceOptions = {}): Promise<ExportSource> {
  const project = (await projectIdentity(knex, crawl.project_id))!;
  const summary = await issueSummary(knex, crawl);
  const pillars = await scorecardPillars(knex, crawl.project_id, crawl, { inPlan: options.searchConsoleInPlan ?? true, synchronises: options.searchConsoleSynchronises ?? true }, options.now);
  const scorecard: ReportPillar[] = pillars.map((p) => ({ ...p, categories: [...(PILLAR_CATEGORIES[p.key] ?? [])] }));
  return {
    project: { name: project.name, url: project.url, domain: project.domain },
    crawl: {
      id: crawl.id,
      status: crawl.status,
      started_at: crawl.started_at,
      finished_at: crawl.finished_at,
      pages: { crawled: crawl.pages_crawled, discovered: crawl.pages_discovered, budget: crawl.pages_budget },
      issue_counts: { error: crawl.issues_error, warning: crawl.issues_warning, info: crawl.issues_info },
      failure: crawl.status === 'failed' && crawl.error ? withoutCode(localiseCrawlError(crawl.error, language)) : null,
    },
    healthScore: crawl.health_score === null ? null : Math.round(crawl.health_score),
    summary,
    // The fix list as GET /v1/crawls/{crawl}/recommendations orders it, so the report agrees.
    fixes: (await recommendations(knex, crawl.id, language)).map((r) => ({ name: r.name, pages: r.pages, score_points: r.score_points, pillar: r.pillar })),
    pagespeed: { crawl_id: crawl.id, ...crawlPageSpeed(crawl) },
    scorecard,
    history: await healthHistory(knex, crawl),
    changes: await changesSource(knex, crawl),
    logs: await logsSource(knex, crawl.project_id),
    issues: (): AsyncIterable<IssueOccurrence> => crawlIssues(knex, crawl.id),
    pages: (): AsyncIterable<ReportPage> => crawlPages(knex, crawl.id),
    language,
    branding: reportBranding(options.branding),
  };
}
