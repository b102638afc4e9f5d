/**
 * The resources the API answers with, as TypeScript types inferred from the contract of
 * `@siteaudit/schema`, so application code can name them (`Project`, `Crawl`, `Export`…).
 * Type-only: nothing here reaches the bundle.
 *
 * @example
 * import type { Crawl, Project } from '@siteaudit/client';
 * function label(project: Project, crawl: Crawl) { return `${project.name}: ${crawl.status}`; }
 */
import type { Webhook } from '@siteaudit/schema';

export type {
  Campaign,
  Crawl,
  CrawledPage,
  DeliveryErrorReason,
  Export,
  IssueOccurrence,
  IssueSummary,
  Me,
  Operation,
  PageSpeedResult,
  Period,
  Positions,
  PositionsKeyword,
  Problem,
  Project,
  Scorecard,
  SearchConsole,
  Severity,
  Usage,
  Webhook,
  WebhookDelivery,
  WebhookEventType,
} from '@siteaudit/schema';

/** One issue found on a page of a crawl (the schema's `IssueOccurrence`). */
export type { IssueOccurrence as Issue } from '@siteaudit/schema';

/** A subscription as created or after rotate-secret: the only answers that carry its `secret`. */
export type WebhookWithSecret = Webhook & { secret: string };
