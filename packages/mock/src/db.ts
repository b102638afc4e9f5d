/**
 * The in-memory store of the mock. Records keep every field the API shows plus what it hides
 * (write-only campaign fields, webhook secrets); each module's serializer (modules/campaigns.ts, webhooks.ts…) decides what goes
 * out. `seq` is a global insertion counter: lists sort on it, because the mock's clock stands
 * still between calls and `created_at` alone would not order them.
 */
import type {
  Campaign,
  CrawlChange,
  CrawlChangesSummary,
  CrawledPage,
  Crawl,
  IssueOccurrence,
  PageResource,
  Project,
  Role,
  Scope,
  WebhookDelivery,
} from '@siteaudit/schema';
import type { AuthFailureCount, CampaignWriteOnly, StoredSchedule } from '@siteaudit/schema/rules';
import { MemoryRateCounters } from '@siteaudit/schema/rules';

export type ExportFormat = 'pdf' | 'xlsx';

export interface TeamRecord {
  id: string;
  slug: string;
  name: string;
  plan: string;
  created_at: string;
}

export interface MemberRecord {
  id: string;
  team_id: string;
  email: string;
  name: string;
  role: Role;
  created_at: string;
  removed_at: string | null;
}

export interface TokenRecord {
  id: string;
  team_id: string;
  member_id: string;
  name: string;
  /** The bearer value itself; a mock has nothing to protect. */
  token: string;
  scopes: Scope[];
  expires_at: string;
  last_used_at: string | null;
  created_at: string;
}

export interface ProjectRecord extends Project {
  seq: number;
  team_id: string;
}

export interface CampaignRecord extends Omit<Campaign, 'schedule'> {
  seq: number;
  team_id: string;
  schedule: StoredSchedule;
  write_only: CampaignWriteOnly;
}

export interface PageRecord extends CrawledPage {
  /** Issue occurrences found on this page (protection pages have none). */
  issues: IssueOccurrence[];
  protection: boolean;
  /** What the page loads, as the by-URL read shows it (docs/decisions/resources.md). */
  resources: PageResource[];
  /** Where the page redirects (a 3xx's Location, a meta-refresh stub's target), as the crawler records it; absent: nowhere. */
  redirect_url?: string | null;
}

export interface CrawlRecord extends Omit<Crawl, 'stage_plan'> {
  seq: number;
  team_id: string;
  settled: boolean;
  steps: Crawl['stage_plan']['steps'];
  /** Hash of the campaign settings the crawl ran with: two crawls are comparable when equal. */
  config_hash: string;
  /** Filled when fetching ends; empty before. */
  page_records: PageRecord[];
  issues: IssueOccurrence[];
  protection_occurrences: number;
  pagespeed_requested: boolean;
  /** Set when a completed crawl settles: what changed since the previous comparable crawl. */
  comparison?: { summary: Omit<CrawlChangesSummary, 'crawl_id'>; items: { key: number; item: CrawlChange }[] };
}

export interface ExportRecord {
  seq: number;
  id: string;
  team_id: string;
  crawl_id: string;
  format: ExportFormat;
  /** The caller's language when requested: part of what makes two exports identical. */
  language: 'fr' | 'en';
  /** Cover branding as requested (JSON), or null: part of what makes two exports identical, as on the server. */
  branding: string | null;
  status: 'queued' | 'generating' | 'ready' | 'failed' | 'expired';
  size_bytes: number | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  expires_at: string | null;
}

export interface KeywordRecord {
  seq: number;
  team_id: string;
  project_id: string;
  keyword: string;
  state: 'tracked' | 'paused' | 'untracked';
  measured: boolean;
  position: number | null;
  /** Positions of earlier checks, oldest first, with their date (YYYY-MM-DD). */
  history: { date: string; position: number | null }[];
  url: string | null;
  search_volume: number | null;
  keyword_difficulty: number | null;
  search_intent: string | null;
  serp_features: string[];
  last_checked_on: string | null;
}

export interface KeywordCheckRecord {
  team_id: string;
  project_id: string;
  keyword: string;
  /** UTC date of the check (one per keyword per day). */
  date: string;
  done: boolean;
}

export interface WebhookRecord {
  seq: number;
  id: string;
  team_id: string;
  url: string;
  description: string | null;
  events: string[];
  active: boolean;
  disabled_reason: string | null;
  disabled_at: string | null;
  consecutive_failures: number;
  last_delivery_at: string | null;
  secret: string;
  previous_secret: string | null;
  secret_rotation_ends_at: string | null;
  created_at: string;
}

export interface DeliveryRecord extends WebhookDelivery {
  seq: number;
  team_id: string;
  webhook_id: string;
}

/**
 * Work the mock does later, when `advance()` moves its clock: crawl stages, export generation
 * and expiry, keyword checks, webhook deliveries. `progress` jobs are those `advance()` with no
 * argument runs to the end; expiry is not, so a bare `advance()` never expires an export.
 */
export interface Job {
  at: number;
  order: number;
  kind: 'crawl.start' | 'crawl.fetched' | 'crawl.settle' | 'export.generate' | 'export.ready' | 'export.expire' | 'keyword.check' | 'delivery.attempt' | 'logs.parsed';
  id: string;
  progress: boolean;
}

export interface IdempotencyRecord {
  fingerprint: string;
  state: 'in_flight' | 'done';
  status: number;
  body: string | null;
  headers: Record<string, string>;
  expires_at: number;
}

/** The whole state of a mock. Exposed as `mock.db` for inspection in tests. */
export interface LogImportRecord {
  seq: number;
  team_id: string;
  /** SHA-256 of the upload as sent: a second upload of the same bytes to the project is refused. */
  digest: string;
  import: import('@siteaudit/schema').LogImport;
  /** What the import becomes once parsed. */
  parsed: import('@siteaudit/schema').LogImport;
  urls: import('@siteaudit/schema/rules').UrlStat[];
  days: import('@siteaudit/schema').LogDayStat[];
}

export interface MockDb {
  teams: Map<string, TeamRecord>;
  members: Map<string, MemberRecord>;
  tokens: Map<string, TokenRecord>;
  projects: Map<string, ProjectRecord>;
  campaigns: Map<string, CampaignRecord>;
  crawls: Map<string, CrawlRecord>;
  exports: Map<string, ExportRecord>;
  /** Log imports (extension) with what their parsing gave, settled at upload and shown when `logs.parsed` runs. */
  logImports: Map<string, LogImportRecord>;
  /** Every crawl launch, kept after the crawl is deleted: the monthly quota is consumed. */
  launches: { team_id: string; at: string }[];
  keywords: KeywordRecord[];
  keywordChecks: KeywordCheckRecord[];
  webhooks: Map<string, WebhookRecord>;
  deliveries: Map<string, DeliveryRecord>;
  jobs: Job[];
  /** Keyed by `team id` + NUL + key. */
  idempotency: Map<string, IdempotencyRecord>;
  /** Keyed by team id. */
  rate: MemoryRateCounters;
  /** Failed authentications this minute; one key, `client`: the mock sees no client address. */
  authFailures: Map<string, AuthFailureCount>;
  seq: number;
  /** The last event's time (ms): the next one is later (nextEventTime). */
  lastEventAt: number;
}

export function createDb(): MockDb {
  return {
    teams: new Map(),
    members: new Map(),
    tokens: new Map(),
    projects: new Map(),
    campaigns: new Map(),
    crawls: new Map(),
    exports: new Map(),
    logImports: new Map(),
    launches: [],
    keywords: [],
    keywordChecks: [],
    webhooks: new Map(),
    deliveries: new Map(),
    jobs: [],
    idempotency: new Map(),
    rate: new MemoryRateCounters(),
    authFailures: new Map(),
    seq: 0,
    lastEventAt: 0,
  };
}

/** Empties every table in place, so references to `mock.db` stay valid across `reset()`. */
export function clearDb(db: MockDb): void {
  for (const value of Object.values(db)) {
    if (value instanceof Map) value.clear();
    else if (Array.isArray(value)) value.length = 0;
  }
  db.seq = 0;
  db.lastEventAt = 0;
}
