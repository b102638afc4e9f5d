import type { Knex } from 'knex';
import { type CrawledPage, type IssueOccurrence, type Language, type OperationsOf, type PageSpeedResult } from '@siteaudit/schema';
import { refusalDetails } from '@siteaudit/schema/rules';
import type { Handlers } from '../../http/binder.js';
import type { Caller } from '../../http/context.js';
import { ApiError, notFound } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { bool } from '../../store/database.js';
import { findCampaign } from '../campaigns/campaign-row.js';
import { byCreation, newestFirst } from '../paging.js';
import { assertUnlocked, findProject } from '../projects/project-row.js';
import { crawlPageSpeed, findCrawl, toCrawl, type CrawlRow } from './crawl-row.js';
import { launchCrawl } from './launch.js';
import { pageResources } from './page-resources.js';
import { issueDetailsIn } from '../../reports/issue-details.js';
import { issueSummary } from './summary.js';
import { changesSummary } from './changes.js';
import { changeRows, toChange, type ChangeRow } from './change-list.js';
import { recommendations } from './recommendations.js';
import { urlHash } from './crawl-sink.js';

/** Reports are read once post-processing has ended (docs/decisions/crawl-lifecycle.md). */
async function settledCrawl(knex: Knex, caller: Caller, id: string): Promise<CrawlRow> {
  const row = await findCrawl(knex, caller, id);
  if (!bool(row.settled)) throw new ApiError('crawl.not_settled', { detail: refusalDetails.crawlNotSettled(row.status) });
  return row;
}

interface PageRow extends CrawledPage {
  crawl_id: string;
  seq: number;
  url_hash: string;
}

function toPage(row: PageRow): CrawledPage {
  return {
    url: row.url,
    status_code: row.status_code,
    error_type: row.error_type,
    content_type: row.content_type,
    is_internal: bool(row.is_internal),
    depth: row.depth,
    title: row.title,
    meta_description: row.meta_description,
    h1: row.h1,
    word_count: row.word_count,
    canonical_url: row.canonical_url,
    response_time_ms: row.response_time_ms,
    size_bytes: row.size_bytes,
    internal_links: row.internal_links,
    external_links: row.external_links,
    images: row.images,
    images_without_alt: row.images_without_alt,
  };
}

/** An occurrence as answered: its details in the caller's language (stored in English, docs/decisions/issue-details-language.md). */
const toIssue = (row: IssueOccurrence, language: Language): IssueOccurrence => ({ name: row.name, severity: row.severity, category: row.category, url: row.url, details: issueDetailsIn(row.name, row.details, language) });

/** Keyset on an ascending integer sequence: stable, and cheap on the (crawl_id, seq) key. */
function afterSeq(query: Knex.QueryBuilder, after: unknown[] | null): Knex.QueryBuilder {
  if (after) query.where('seq', '>', Number(after[0]));
  return query.orderBy('seq', 'asc');
}

interface InlinkRow {
  seq: number;
  url: string;
  anchor_text: string;
  nofollow: boolean | number;
}

const STATUS_RANGES: Record<string, [number, number]> = { '2xx': [200, 299], '3xx': [300, 399], '4xx': [400, 499], '5xx': [500, 599] };

export function crawlHandlers(services: Services): Pick<Handlers, OperationsOf<'crawls'>> {
  // Every read below writes nothing: it goes to the read connections (store/database.ts).
  const { knex, reads } = services;
  return {
    async launchCrawl(ctx, { params }) {
      const campaign = await findCampaign(knex, ctx.caller, params.campaign);
      assertUnlocked(await findProject(knex, ctx.caller, campaign.project_id));
      const row = await launchCrawl(services, { campaign, plan: ctx.caller.plan, trigger: 'manual' });
      return { body: { data: toCrawl(row, ctx.language) }, headers: { Location: services.links.relative(`/v1/crawls/${row.id}`) } };
    },

    async listCrawls(ctx, { params }) {
      const project = await findProject(reads, ctx.caller, params.project);
      const rows = await newestFirst(reads('crawls').where({ project_id: project.id }), ctx.page);
      return { items: rows as CrawlRow[], key: byCreation, map: (r: CrawlRow) => toCrawl(r, ctx.language) };
    },

    async getCrawl(ctx, { params }) {
      return { body: { data: toCrawl(await findCrawl(reads, ctx.caller, params.crawl), ctx.language) } };
    },

    async listCrawlIssues(ctx, { params, query }) {
      const crawl = await settledCrawl(reads, ctx.caller, params.crawl);
      const q = reads('crawl_issues').where({ crawl_id: crawl.id });
      if (query.severity) q.andWhere({ severity: query.severity });
      if (query.category) q.andWhere({ category: query.category });
      if (query.name) q.andWhere({ name: query.name });
      if (query.url) q.andWhere({ url_hash: urlHash(query.url) });
      // Errors first, then warnings, then info; within a severity, the order found.
      const [rank, seq] = (ctx.page.after ?? []) as [number?, number?];
      if (rank !== undefined && seq !== undefined) {
        q.andWhere((w) => w.where('severity_rank', '>', rank).orWhere((w2) => w2.where('severity_rank', '=', rank).andWhere('seq', '>', seq)));
      }
      const rows = await q.orderBy([{ column: 'severity_rank' }, { column: 'seq' }]).limit(ctx.page.limit + 1);
      return { items: rows, key: (r: { severity_rank: number; seq: number }) => [r.severity_rank, r.seq], map: (row: IssueOccurrence) => toIssue(row, ctx.language) };
    },

    async getCrawlIssueSummary(ctx, { params }) {
      const crawl = await settledCrawl(reads, ctx.caller, params.crawl);
      return { body: { data: await issueSummary(reads, crawl, ctx.language) } };
    },

    async listCrawlPages(ctx, { params, query }) {
      const crawl = await settledCrawl(reads, ctx.caller, params.crawl);
      const q = reads('crawl_pages').where({ crawl_id: crawl.id });
      if (query.status === 'unreachable') q.whereNull('status_code');
      else if (query.status) q.whereBetween('status_code', STATUS_RANGES[query.status]);
      if (query.internal !== undefined) q.andWhere({ is_internal: query.internal });
      const rows = await afterSeq(q, ctx.page.after).limit(ctx.page.limit + 1);
      return { items: rows, key: (r: PageRow) => [r.seq], map: toPage };
    },

    async getCrawlPageByUrl(ctx, { params, query }) {
      const crawl = await settledCrawl(reads, ctx.caller, params.crawl);
      const page = (await reads('crawl_pages').where({ crawl_id: crawl.id, url_hash: urlHash(query.url) }).orderBy('seq').first()) as PageRow | undefined;
      if (!page) throw notFound();
      const issues = await reads('crawl_issues').where({ crawl_id: crawl.id, url_hash: page.url_hash }).orderBy([{ column: 'severity_rank' }, { column: 'seq' }]);
      const resources = await pageResources(reads, crawl.id, page.url_hash);
      return { body: { data: { ...toPage(page), issues: issues.map((row) => toIssue(row, ctx.language)), resources } } };
    },

    async listCrawlPageInlinks(ctx, { params, query }) {
      const crawl = await settledCrawl(reads, ctx.caller, params.crawl);
      const target = urlHash(query.url);
      if (!(await reads('crawl_pages').where({ crawl_id: crawl.id, url_hash: target }).first('seq'))) throw notFound();
      // The linking page by its seq (026-crawl-links.ts); a page row never stored (a duplicate) drops its links.
      const q = reads('crawl_links as l')
        .join('crawl_pages as p', (on) => on.on('p.crawl_id', '=', 'l.crawl_id').andOn('p.seq', '=', 'l.source_seq'))
        .where({ 'l.crawl_id': crawl.id, 'l.target_hash': target });
      if (ctx.page.after) q.andWhere('l.seq', '>', Number(ctx.page.after[0]));
      const rows = (await q.orderBy('l.seq').limit(ctx.page.limit + 1).select('l.seq', 'p.url', 'l.anchor_text', 'l.nofollow')) as InlinkRow[];
      return { items: rows, key: (r: InlinkRow) => [r.seq], map: (r: InlinkRow) => ({ url: r.url, anchor_text: r.anchor_text, nofollow: bool(r.nofollow) }) };
    },

    async listCrawlChanges(ctx, { params, query }) {
      const crawl = await settledCrawl(reads, ctx.caller, params.crawl);
      const rows = await changeRows(reads, crawl, { kind: query.kind, severity: query.severity }, ctx.page.after as [number, number] | null, ctx.page.limit + 1);
      return { items: rows, key: (r: ChangeRow) => [r.kind_rank, r.seq], map: (r: ChangeRow) => toChange(r, ctx.language) };
    },

    async getCrawlChangesSummary(ctx, { params }) {
      return { body: { data: changesSummary(await settledCrawl(reads, ctx.caller, params.crawl)) } };
    },

    async listCrawlRecommendations(ctx, { params }) {
      const crawl = await settledCrawl(reads, ctx.caller, params.crawl);
      // A settled crawl's list never changes: its position is a stable key.
      const all = (await recommendations(reads, crawl.id, ctx.language)).map((item, index) => ({ index, item }));
      const after = ctx.page.after ? Number(ctx.page.after[0]) : -1;
      return { items: all.filter((r) => r.index > after).slice(0, ctx.page.limit + 1), key: (r: { index: number }) => [r.index], map: (r: { item: unknown }) => r.item };
    },

    async getCrawlPagespeed(ctx, { params }) {
      const crawl = await settledCrawl(reads, ctx.caller, params.crawl);
      const result: PageSpeedResult = { crawl_id: crawl.id, ...crawlPageSpeed(crawl) };
      return { body: { data: result } };
    },
  };
}
