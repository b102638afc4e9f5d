/**
 * Lookups scoped to the caller's team (another team's resource is 404, never 403), time helpers
 * and the ordering every list shares.
 */
import { fail, notFound, type Caller, type MockEnv } from './context.js';
import type { CampaignRecord, CrawlRecord, ExportRecord, MockDb, ProjectRecord, WebhookRecord } from './db.js';

export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const iso = (ms: number | Date): string => new Date(ms).toISOString();
/** YYYY-MM-DD of an instant, in UTC. */
export const isoDate = (ms: number | Date): string => iso(ms).slice(0, 10);
/** YYYY-MM of an instant, in UTC: the monthly quotas' window. */
export const isoMonth = (ms: number | Date): string => iso(ms).slice(0, 7);

/** The path part of the base URL (usually empty): `Location` headers are relative, as the server's. */
export function basePath(env: MockEnv): string {
  return new URL(env.baseUrl).pathname.replace(/\/$/, '');
}

export function nextSeq(db: MockDb): number {
  return ++db.seq;
}

function owned<T extends { team_id: string }>(map: Map<string, T>, id: string, caller: Caller): T {
  const record = map.get(id);
  if (!record || record.team_id !== caller.team.id) notFound();
  return record;
}

export const ownedProject = (db: MockDb, id: string, caller: Caller): ProjectRecord => owned(db.projects, id, caller);
export const ownedCampaign = (db: MockDb, id: string, caller: Caller): CampaignRecord => owned(db.campaigns, id, caller);
export const ownedCrawl = (db: MockDb, id: string, caller: Caller): CrawlRecord => owned(db.crawls, id, caller);
export const ownedExport = (db: MockDb, id: string, caller: Caller): ExportRecord => owned(db.exports, id, caller);
export const ownedWebhook = (db: MockDb, id: string, caller: Caller): WebhookRecord => owned(db.webhooks, id, caller);

/** 403 `project.locked` when the project is read-only (docs/decisions/projects.md). */
export function assertUnlocked(project: ProjectRecord): void {
  if (project.locked) fail('project.locked');
}

/** List items newest first: the key grows along the list, so it is minus the insertion order. */
export function newestFirst<R extends { seq: number }>(records: Iterable<R>, serialize: (r: R) => unknown) {
  return [...records].sort((a, b) => b.seq - a.seq).map((r) => ({ key: -r.seq, item: serialize(r) }));
}

