import { z } from 'zod';
import { NoBody, NoParams, NoQuery, PageQuery, list, single } from './common.js';
import { OPERATIONS, type OperationId, type OperationInfo } from './operations.js';
import { Me, OperationList, Usage } from './resources/account.js';
import { Campaign, CampaignParams, CreateCampaignBody, UpdateCampaignBody } from './resources/campaigns.js';
import {
  Crawl,
  CrawlParams,
  CrawledPage,
  CrawledPageWithIssues,
  IssueOccurrence,
  IssueSummary,
  LaunchCrawlBody,
  ListIssuesQuery,
  ListPagesQuery,
  PageByUrlQuery,
  ListInlinksQuery,
  PageInlink,
  PageSpeedResult,
} from './resources/crawls.js';
import { CrawlChange, CrawlChangesSummary, ListChangesQuery, ListRecommendationsQuery, Recommendation } from './resources/changes.js';
import { CreateExportBody, Export, ExportParams } from './resources/exports.js';
import {
  CheckKeywordBody,
  KeywordCheck,
  KeywordsActivityResult,
  KeywordsBody,
  PeriodQuery,
  Positions,
  TrackKeywordsBody,
  TrackKeywordsResult,
  UntrackKeywordsResult,
} from './resources/positions.js';
import {
  ListLogDaysQuery,
  ListLogFindingsQuery,
  ListLogUrlsQuery,
  LogDayStat,
  LogFinding,
  LogImport,
  LogImportParams,
  LogInsights,
  LogUrlStat,
} from './resources/logs.js';
import { CreateProjectBody, Project, ProjectParams, UpdateProjectBody } from './resources/projects.js';
import { Scorecard } from './resources/scorecard.js';
import { SearchConsole } from './resources/search-console.js';
import {
  CreateWebhookBody,
  UpdateWebhookBody,
  Webhook,
  WebhookDelivery,
  WebhookParams,
  WebhookWithSecret,
} from './resources/webhooks.js';

interface Schemas {
  params: z.ZodType;
  query: z.ZodType;
  body: z.ZodType | null;
  /** null for a 204 or a file download. */
  response: z.ZodType | null;
}

const S = <P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType | null, R extends z.ZodType | null>(s: {
  params: P;
  query: Q;
  body: B;
  response: R;
}) => s;

const projectRead = <R extends z.ZodType>(response: R) => S({ params: ProjectParams, query: NoQuery, body: null, response });
const crawlRead = <R extends z.ZodType>(response: R) => S({ params: CrawlParams, query: NoQuery, body: null, response });
const projectKeywords = <B extends z.ZodType, R extends z.ZodType>(body: B, response: R) =>
  S({ params: ProjectParams, query: NoQuery, body, response: single(response) });

const SCHEMAS = {
  getMe: S({ params: NoParams, query: NoQuery, body: null, response: single(Me) }),
  getUsage: S({ params: NoParams, query: NoQuery, body: null, response: single(Usage) }),
  listOperations: S({ params: NoParams, query: NoQuery, body: null, response: OperationList }),

  listProjects: S({ params: NoParams, query: PageQuery, body: null, response: list(Project) }),
  createProject: S({ params: NoParams, query: NoQuery, body: CreateProjectBody, response: single(Project) }),
  getProject: projectRead(single(Project)),
  updateProject: S({ params: ProjectParams, query: NoQuery, body: UpdateProjectBody, response: single(Project) }),
  deleteProject: S({ params: ProjectParams, query: NoQuery, body: null, response: null }),
  getScorecard: projectRead(single(Scorecard)),

  listCampaigns: S({ params: ProjectParams, query: PageQuery, body: null, response: list(Campaign) }),
  createCampaign: S({ params: ProjectParams, query: NoQuery, body: CreateCampaignBody, response: single(Campaign) }),
  getCampaign: S({ params: CampaignParams, query: NoQuery, body: null, response: single(Campaign) }),
  updateCampaign: S({ params: CampaignParams, query: NoQuery, body: UpdateCampaignBody, response: single(Campaign) }),
  deleteCampaign: S({ params: CampaignParams, query: NoQuery, body: null, response: null }),

  launchCrawl: S({ params: CampaignParams, query: NoQuery, body: LaunchCrawlBody, response: single(Crawl) }),
  listCrawls: S({ params: ProjectParams, query: PageQuery, body: null, response: list(Crawl) }),
  getCrawl: crawlRead(single(Crawl)),
  listCrawlIssues: S({ params: CrawlParams, query: ListIssuesQuery, body: null, response: list(IssueOccurrence) }),
  getCrawlIssueSummary: crawlRead(single(IssueSummary)),
  listCrawlPages: S({ params: CrawlParams, query: ListPagesQuery, body: null, response: list(CrawledPage) }),
  getCrawlPageByUrl: S({ params: CrawlParams, query: PageByUrlQuery, body: null, response: single(CrawledPageWithIssues) }),
  listCrawlPageInlinks: S({ params: CrawlParams, query: ListInlinksQuery, body: null, response: list(PageInlink) }),
  getCrawlPagespeed: crawlRead(single(PageSpeedResult)),
  listCrawlChanges: S({ params: CrawlParams, query: ListChangesQuery, body: null, response: list(CrawlChange) }),
  getCrawlChangesSummary: crawlRead(single(CrawlChangesSummary)),
  listCrawlRecommendations: S({ params: CrawlParams, query: ListRecommendationsQuery, body: null, response: list(Recommendation) }),

  createExport: S({ params: CrawlParams, query: NoQuery, body: CreateExportBody, response: single(Export) }),
  getExport: S({ params: ExportParams, query: NoQuery, body: null, response: single(Export) }),
  downloadExport: S({ params: ExportParams, query: NoQuery, body: null, response: null }),

  getPositions: S({ params: ProjectParams, query: PeriodQuery, body: null, response: single(Positions) }),
  trackKeywords: projectKeywords(TrackKeywordsBody, TrackKeywordsResult),
  untrackKeywords: projectKeywords(KeywordsBody, UntrackKeywordsResult),
  pauseKeywords: projectKeywords(KeywordsBody, KeywordsActivityResult),
  resumeKeywords: projectKeywords(KeywordsBody, KeywordsActivityResult),
  checkKeyword: projectKeywords(CheckKeywordBody, KeywordCheck),
  getSearchConsole: S({ params: ProjectParams, query: PeriodQuery, body: null, response: single(SearchConsole) }),

  listWebhooks: S({ params: NoParams, query: PageQuery, body: null, response: list(Webhook) }),
  createWebhook: S({ params: NoParams, query: NoQuery, body: CreateWebhookBody, response: single(WebhookWithSecret) }),
  getWebhook: S({ params: WebhookParams, query: NoQuery, body: null, response: single(Webhook) }),
  updateWebhook: S({ params: WebhookParams, query: NoQuery, body: UpdateWebhookBody, response: single(Webhook) }),
  deleteWebhook: S({ params: WebhookParams, query: NoQuery, body: null, response: null }),
  rotateWebhookSecret: S({ params: WebhookParams, query: NoQuery, body: NoBody, response: single(WebhookWithSecret) }),
  testWebhook: S({ params: WebhookParams, query: NoQuery, body: NoBody, response: single(WebhookDelivery) }),
  listWebhookDeliveries: S({ params: WebhookParams, query: PageQuery, body: null, response: list(WebhookDelivery) }),

  // The upload's body is the file itself, streamed to the handler (`upload` in operations.ts).
  createLogImport: S({ params: ProjectParams, query: NoQuery, body: null, response: single(LogImport) }),
  listLogImports: S({ params: ProjectParams, query: PageQuery, body: null, response: list(LogImport) }),
  getLogImport: S({ params: LogImportParams, query: NoQuery, body: null, response: single(LogImport) }),
  deleteLogImport: S({ params: LogImportParams, query: NoQuery, body: null, response: null }),
  getLogInsights: projectRead(single(LogInsights)),
  listLogUrls: S({ params: ProjectParams, query: ListLogUrlsQuery, body: null, response: list(LogUrlStat) }),
  listLogDays: S({ params: ProjectParams, query: ListLogDaysQuery, body: null, response: list(LogDayStat) }),
  listLogFindings: S({ params: ProjectParams, query: ListLogFindingsQuery, body: null, response: list(LogFinding) }),
} satisfies Record<OperationId, Schemas>;

type Contract = {
  [K in OperationId]: (typeof OPERATIONS)[K] & (typeof SCHEMAS)[K] & { readonly id: K };
};

/** The contract: one entry per operation of the API, its HTTP rules joined to its schemas. */
export const contract = Object.fromEntries(
  (Object.keys(OPERATIONS) as OperationId[]).map((id) => [id, { id, ...OPERATIONS[id], ...SCHEMAS[id] }]),
) as Contract;

export type ContractEntry = OperationInfo & Schemas & { readonly id: OperationId };

/** Types of each operation, for the client and the server handlers. */
export type Params<K extends OperationId> = z.input<Contract[K]['params']>;
export type Query<K extends OperationId> = z.input<Contract[K]['query']>;
export type Body<K extends OperationId> = Contract[K]['body'] extends z.ZodType ? z.input<Contract[K]['body']> : never;
export type ParsedBody<K extends OperationId> = Contract[K]['body'] extends z.ZodType ? z.output<Contract[K]['body']> : undefined;
export type ParsedQuery<K extends OperationId> = z.output<Contract[K]['query']>;
export type ParsedParams<K extends OperationId> = z.output<Contract[K]['params']>;
export type ResponseBody<K extends OperationId> = Contract[K]['response'] extends z.ZodType ? z.output<Contract[K]['response']> : undefined;
