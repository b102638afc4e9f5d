/**
 * Log exploration (extension, docs/decisions/logs.md): the upload is parsed at once with the
 * server's line rules and shows `queued` until `logs.parsed` runs (a second later), then
 * `completed`. The mock has no DNS and not the published range files: a Google claim is verified
 * inside 66.249.64.0/19 (Googlebot's historical block), a Bing claim inside Bing's published
 * IPv4 prefixes (written as IPv4 or IPv4-mapped IPv6); any other claim is unverified, counted
 * per day only (no path), as the server does.
 */
import { type BotFamily, type Scorecard, type LogDayStat, type LogImport } from '@siteaudit/schema';
import { createLogAggregator, INFLATION_FAILED, joinLogs, type JoinPage, limitUpgrade, LOG_PILLAR_DAYS, logFindings, MAX_LOG_LINE_CHARS, logInsights, logPillar, type LogTotals, meanAxes, meanComputation, noComputation, refusalDetails, settleVerifications, statusRecord, storedPath, type UrlStat, type VerifiedOperator, withinLimit } from '@siteaudit/schema/rules';
import { assertIncluded } from '@siteaudit/schema/pipeline';
import { data, empty, fail, notFound, type BusinessMap, type Caller, type MockEnv } from '../context.js';
import type { Job, MockDb, ProjectRecord } from '../db.js';
import { removeExportsShowingLogs } from './exports.js';
import { assertUnlocked, basePath, DAY, iso, nextSeq, ownedProject, SECOND } from '../store.js';

const PARSE_MS = 1 * SECOND;

const BING = ['157.55.39.0/24', '207.46.13.0/24', '40.77.167.0/24', '13.66.139.0/24', '13.66.144.0/24', '52.167.144.0/24', '40.77.188.0/22', '65.55.210.0/24', '199.30.24.0/23', '40.77.202.0/24', '40.77.177.0/24', '40.77.178.0/23'];
const GOOGLE = ['66.249.64.0/19'];

function inCidr(ip: string, cidr: string): boolean {
  // An IPv4-mapped address (`::ffff:66.249.66.1`, as a dual-stack server logs IPv4 clients) is its IPv4 address, as the server reads it.
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? ip;
  const parts = v4.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return false;
  const [base, bits] = cidr.split('/');
  const n = (xs: number[]) => xs.reduce((a, b) => a * 256 + b, 0);
  const size = 2 ** (32 - Number(bits));
  const start = n(base.split('.').map(Number));
  const value = n(parts);
  return value >= start && value < start + size;
}

const verify = (operator: VerifiedOperator, ip: string) => (operator === 'google' ? GOOGLE : BING).some((c) => inCidr(ip, c));

/** The upload's bytes, their SHA-256 (hex), and their text, gunzipped when they start with gzip's magic bytes. */
export interface MockUpload {
  raw: Uint8Array;
  text: string;
  digest: string;
  /** Set when the gzip stream stopped before its end: the bytes of text it gave. */
  inflatedBytes?: number;
  /** Set when the gzip stream inflated past the bound (rules/log-inflation.ts): the import fails. */
  inflationExceeded?: boolean;
}

/**
 * What the server refuses before it reads an upload (and before its idempotency claim, so these
 * refusals are not stored): the project, the plan, the size.
 */
export function checkLogUpload(env: MockEnv, caller: Caller, projectId: string, body: MockUpload | undefined): void {
  const project = ownedProject(env.db, projectId, caller);
  assertUnlocked(project);
  assertIncluded(env.plans, caller.plan, 'logs.import_max_bytes', 'plan_limit.logs');
  if (!body) fail('log_import.unsupported_media_type');
  const max = caller.plan.limits['logs.import_max_bytes'];
  if (!withinLimit(max, body.raw.byteLength)) fail('log_import.too_large', { upgrade_to: limitUpgrade(env.plans, caller.plan, 'logs.import_max_bytes', body.raw.byteLength) });
}

function parse(projectId: string, id: string, upload: MockUpload, now: Date): { parsed: LogImport; urls: UrlStat[]; days: LogDayStat[] } {
  const aggregator = createLogAggregator(verify);
  const { aggregate, add } = aggregator;
  const lines = upload.text.split('\n');
  // A gzip stream cut short: its last line, cut mid-way, is refused (as on the server).
  const partial = upload.inflatedBytes === undefined ? null : lines.pop()!;
  // A line past the bound is refused unread, as the server's parse does.
  for (const line of lines) {
    if (line.length > MAX_LOG_LINE_CHARS) aggregator.refuse('line_too_long');
    else add(line);
  }
  if (partial !== null) {
    const overlong = partial.length > MAX_LOG_LINE_CHARS;
    if (overlong) aggregator.refuse('line_too_long');
    aggregator.truncated(upload.inflatedBytes!, overlong ? '' : partial);
  }
  // Every claim outside the ranges fails: it leaves day counts only, no URL statistic.
  settleVerifications(aggregate, new Set());
  const urls: UrlStat[] = [...aggregate.urls].map(([key, v]) => {
    const [family, verification, ...rest] = key.split('\t');
    return { path: storedPath(rest.join('\t')), family: family as BotFamily, verification: verification as UrlStat['verification'], hits: v.hits, last_visit: iso(v.last), status_codes: statusRecord(v.statuses), bytes: v.bytes };
  });
  const days: LogDayStat[] = [...aggregate.days].map(([key, hits]) => {
    const [date, family, verification, status_class] = key.split('\t');
    return { date, family, verification, status_class, hits } as LogDayStat;
  });
  const parsed: LogImport = {
    id,
    project_id: projectId,
    status: 'completed',
    format: aggregate.format,
    size_bytes: upload.raw.byteLength,
    lines: { read: aggregate.linesRead, kept: aggregate.kept, refused: aggregate.refused },
    refusals: aggregate.refusals,
    human_hits: aggregate.humanHits,
    bot_hits: aggregate.botHits,
    period: aggregate.from === null || aggregate.to === null ? null : { from: iso(aggregate.from), to: iso(aggregate.to) },
    truncation: aggregate.truncation ?? null,
    error: null,
    created_at: iso(now),
    finished_at: iso(now.getTime() + PARSE_MS),
  };
  // A gzip bomb fails, keeping nothing, as on the server.
  if (upload.inflationExceeded) {
    const nothing = { format: null, lines: { read: 0, kept: 0, refused: 0 }, refusals: [], human_hits: 0, bot_hits: 0, period: null, truncation: null };
    return { parsed: { ...parsed, ...nothing, status: 'failed', error: INFLATION_FAILED }, urls: [], days: [] };
  }
  return { parsed, urls, days };
}

function completed(db: MockDb, projectId: string) {
  return [...db.logImports.values()].filter((r) => r.import.project_id === projectId && r.import.status === 'completed');
}

function urlStats(db: MockDb, projectId: string): UrlStat[] {
  const merged = new Map<string, UrlStat>();
  for (const record of completed(db, projectId)) {
    for (const s of record.urls) {
      const key = `${s.family}\t${s.verification}\t${s.path}`;
      const prior = merged.get(key);
      if (!prior) merged.set(key, { ...s, status_codes: { ...s.status_codes } });
      else {
        prior.hits += s.hits;
        prior.bytes += s.bytes;
        if (s.last_visit > prior.last_visit) prior.last_visit = s.last_visit;
        for (const [c, n] of Object.entries(s.status_codes)) prior.status_codes[c] = (prior.status_codes[c] ?? 0) + n;
      }
    }
  }
  return [...merged.values()];
}

/** Unverified claims per family, from the day counts (they have no URL statistic). */
function unverifiedClaims(db: MockDb, projectId: string): LogTotals['unverified'] {
  const hits = new Map<BotFamily, number>();
  for (const record of completed(db, projectId)) {
    for (const d of record.days) if (d.verification === 'unverified' && d.family !== 'human') hits.set(d.family, (hits.get(d.family) ?? 0) + d.hits);
  }
  return [...hits].map(([family, n]) => ({ family, hits: n }));
}

/** The latest settled crawl's internal pages, as the server's join reads them. */
function crawlPages(db: MockDb, project: ProjectRecord): { id: string; pages: JoinPage[] } | null {
  const crawl = [...db.crawls.values()]
    .filter((c) => c.project_id === project.id && c.status === 'completed' && c.settled)
    .sort((a, b) => (b.finished_at ?? '').localeCompare(a.finished_at ?? '') || b.seq - a.seq)[0];
  if (!crawl) return null;
  const pages = crawl.page_records
    .filter((p) => p.is_internal)
    .map((p) => ({
      url: p.url,
      status_code: p.status_code,
      content_type: p.content_type,
      canonical_url: p.canonical_url,
      depth: p.depth,
      noindex: p.issues.some((i) => i.name === 'noindex'),
      robots_disallowed: p.issues.some((i) => i.name === 'blocked_by_robots'),
    }));
  return { id: crawl.id, pages };
}

const byIndex = <T>(items: T[]) => items.map((item, i) => ({ key: i, item }));
const textOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The `logs` pillar as the server computes it (docs/health-score.md). */
export function logsPillar(db: MockDb, project: ProjectRecord, now: Date): Scorecard['pillars'][number] {
  const since = iso(now.getTime() - LOG_PILLAR_DAYS * DAY);
  const recent = completed(db, project.id).filter((r) => r.import.period !== null && r.import.period.to >= since);
  const base = { key: 'logs' as const, version: 1, available: true };
  if (recent.length === 0) {
    const reason = completed(db, project.id).length ? 'no_recent_logs' : 'no_logs';
    return { ...base, score: null, status: 'not_measured', as_of: null, blocked_reason: reason, axes: [], computation: noComputation('logs') };
  }
  const stats = recent.flatMap((r) => r.urls);
  const crawl = crawlPages(db, project);
  const result = logPillar(stats, crawl?.pages ?? null, now);
  const asOf = recent.map((r) => r.import.period!.to).sort().at(-1)!;
  return {
    ...base,
    score: result.score,
    status: result.score === null ? 'not_measured' : 'measured',
    as_of: asOf,
    blocked_reason: result.score === null ? 'no_bot_hits' : crawl ? null : 'no_completed_crawl',
    axes: meanAxes(result.axes),
    computation: meanComputation(result.axes),
  };
}

export function runLogJob(env: MockEnv, job: Job): void {
  const record = env.db.logImports.get(job.id);
  if (record && record.import.status === 'queued') record.import = record.parsed;
}

export const logOperations = {
  createLogImport({ env, db, caller, params, now, upload }) {
    checkLogUpload(env, caller, params.project, upload as MockUpload | undefined);
    const body = upload as MockUpload;
    const project = ownedProject(db, params.project, caller);
    const earlier = [...db.logImports.values()].find((r) => r.import.project_id === project.id && r.digest === body.digest && r.import.status !== 'failed');
    if (earlier) {
      fail('log_import.duplicate', {
        detail: refusalDetails.duplicateLogImport(earlier.import.id, `${basePath(env)}/v1/projects/${project.id}/log-imports/${earlier.import.id}`),
      });
    }
    const id = env.random.uuid();
    const { parsed, urls, days } = parse(project.id, id, body, now);
    const queued: LogImport = { ...parsed, status: 'queued', format: null, lines: { read: 0, kept: 0, refused: 0 }, refusals: [], human_hits: 0, bot_hits: 0, period: null, truncation: null, finished_at: null };
    db.logImports.set(id, { seq: nextSeq(db), team_id: caller.team.id, digest: body.digest, import: queued, parsed, urls, days });
    env.schedule('logs.parsed', id, now.getTime() + PARSE_MS);
    return data(queued, { status: 202, headers: { Location: `${basePath(env)}/v1/projects/${project.id}/log-imports/${id}` } });
  },
  listLogImports({ db, caller, params }) {
    const project = ownedProject(db, params.project, caller);
    const records = [...db.logImports.values()].filter((r) => r.import.project_id === project.id).sort((a, b) => b.seq - a.seq);
    return { type: 'list', items: records.map((r) => ({ key: -r.seq, item: r.import })) };
  },
  getLogImport({ db, caller, params }) {
    const project = ownedProject(db, params.project, caller);
    const record = db.logImports.get(params.import);
    if (!record || record.import.project_id !== project.id) notFound();
    return data(record.import);
  },
  deleteLogImport({ db, caller, params }) {
    const project = ownedProject(db, params.project, caller);
    assertUnlocked(project);
    const record = db.logImports.get(params.import);
    if (!record || record.import.project_id !== project.id) notFound();
    db.logImports.delete(params.import);
    // Its paths are in the reports made since it completed: they go too, as on the server.
    if (record.import.status === 'completed' && record.import.finished_at) removeExportsShowingLogs(db, project.id, record.import.finished_at);
    return empty();
  },
  getLogInsights({ db, caller, params }) {
    const project = ownedProject(db, params.project, caller);
    const imports = completed(db, project.id).map((r) => r.import);
    const from = imports.map((i) => i.period?.from).filter((x): x is string => !!x).sort()[0];
    const to = imports.map((i) => i.period?.to).filter((x): x is string => !!x).sort().at(-1);
    const humans = imports.reduce((n, i) => n + i.human_hits, 0);
    return data(logInsights(project.id, urlStats(db, project.id), { humans, unverified: unverifiedClaims(db, project.id) }, from && to ? { from, to } : null, crawlPages(db, project)));
  },
  listLogUrls({ db, caller, params, query }) {
    const project = ownedProject(db, params.project, caller);
    const stats = urlStats(db, project.id)
      .filter((s) => (query.family === undefined || s.family === query.family) && (query.verification === undefined || s.verification === query.verification))
      .sort((a, b) => textOrder(a.path, b.path) || textOrder(a.family, b.family) || textOrder(a.verification, b.verification));
    return { type: 'list', items: byIndex(stats) };
  },
  listLogDays({ db, caller, params, query }) {
    const project = ownedProject(db, params.project, caller);
    const sums = new Map<string, LogDayStat>();
    for (const record of completed(db, project.id)) {
      for (const d of record.days) {
        if (query.family !== undefined && d.family !== query.family) continue;
        const key = `${d.date}\t${d.family}\t${d.verification}\t${d.status_class}`;
        const prior = sums.get(key);
        if (prior) prior.hits += d.hits;
        else sums.set(key, { ...d });
      }
    }
    const rows = [...sums.values()].sort((a, b) => textOrder(b.date, a.date) || textOrder(a.family, b.family) || textOrder(a.verification, b.verification) || textOrder(a.status_class, b.status_class));
    return { type: 'list', items: byIndex(rows) };
  },
  listLogFindings({ db, caller, params, query }) {
    const project = ownedProject(db, params.project, caller);
    const crawl = crawlPages(db, project);
    return { type: 'list', items: byIndex(crawl ? logFindings(joinLogs(urlStats(db, project.id), crawl.pages), query.kind) : []) };
  },
} satisfies Pick<BusinessMap, 'createLogImport' | 'listLogImports' | 'getLogImport' | 'deleteLogImport' | 'getLogInsights' | 'listLogUrls' | 'listLogDays' | 'listLogFindings'>;
