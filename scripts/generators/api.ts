/**
 * What the generator check's flow (scripts/check-generators.ts) asks of a generated client. Each
 * adapter beside this file implements it with its generator's output only, and is type-checked
 * with that output under `--strict`: a field the document types wrongly fails the compilation.
 * Copied next to the generated code in the check's temporary folder; no import of the repository.
 */

/** One request as it went over the wire and what came back (the body as text when JSON). */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  text: string | null;
}

export interface Setup {
  baseUrl: string;
  token: string;
  /** A fetch that records every exchange (for fetch-based clients). */
  fetch: typeof fetch;
  /** Records one exchange (for axios-based clients, from an interceptor). */
  record(exchange: Exchange): void;
}

/** A status, the parsed body and the response headers (lower-case names). */
export interface Answer {
  status: number;
  body: any;
  headers: Record<string, string>;
}

export interface Api {
  createWebhook(url: string, events: string[]): Promise<Answer>;
  testWebhook(webhook: string): Promise<Answer>;
  createProject(url: string, idempotencyKey?: string): Promise<Answer>;
  /** A body the server refuses: 422 `validation_failed`. */
  createProjectInvalid(): Promise<Answer>;
  listProjects(limit: number, cursor?: string): Promise<Answer>;
  getProject(project: string, ifNoneMatch?: string): Promise<Answer>;
  /** Without a token: 401. */
  getMeAnonymous(): Promise<Answer>;
  createCampaign(project: string, name: string, startUrl: string): Promise<Answer>;
  /** 204; stops the campaign's running crawl first. */
  deleteCampaign(campaign: string): Promise<Answer>;
  launchCrawl(campaign: string, idempotencyKey: string): Promise<Answer>;
  getCrawl(crawl: string): Promise<Answer>;
  listCrawlPages(crawl: string, internal: boolean): Promise<Answer>;
  /** An extension list: the pages linking to `url`, a page of `limit`. */
  listCrawlPageInlinks(crawl: string, url: string, limit: number, cursor?: string): Promise<Answer>;
  listCrawlIssues(crawl: string): Promise<Answer>;
  getCrawlIssueSummary(crawl: string): Promise<Answer>;
  /** `nulls`: per row, whether the fields its kind makes null are typed (and are) null. */
  listCrawlChanges(crawl: string): Promise<Answer & { pageChangeSeverities: (string | null)[] }>;
  /** An extension read. */
  listCrawlRecommendations(crawl: string): Promise<Answer>;
  getScorecard(project: string): Promise<Answer>;
  createExport(crawl: string): Promise<Answer>;
}

/** Lower-case header names of a fetch Response. */
export const headersOf = (response: Response): Record<string, string> => Object.fromEntries(response.headers);
