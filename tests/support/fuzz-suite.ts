/**
 * The property-based fuzz suite: generated requests (tests/fuzz/requests.ts), valid and hostile,
 * to all 40 operations of a target seeded with real resources, asserting what must hold for any
 * request: no 5xx; every error is problem+json with a catalogue code and the catalogue's status;
 * a refused call changes no stored data. With two targets (the server and the mock), each
 * request goes to both and their answers must agree on status and code.
 *
 * Runs: FUZZ_RUNS requests (default: the bounded run of each file, see `fuzzRuns`; `npm run fuzz`
 * sets a long run), FUZZ_SEED to replay.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { createClient } from '@siteaudit/client';
import { ERRORS, contract, type ErrorCode, type OperationId } from '@siteaudit/schema';
import { type PlanOverrides } from '@siteaudit/schema/rules';
import { anyRequest, resolve, type FuzzRequest } from './fuzz-requests.js';

/** Limits high enough that a long run never meets the rate limit or a plan ceiling. */
export const FUZZ_PLANS: PlanOverrides = {
  agency: {
    rateLimits: { minute: 10_000_000, day: 100_000_000 },
    limits: { 'crawls.monthly': null, 'api.webhooks.max': null, 'positions.tracked_keywords': null, 'keywords.project_limit': null, 'positions.live_checks_per_day': null, 'positions.monthly_spend': null },
  },
};

/**
 * Requests in a run: FUZZ_RUNS when set, else the file's bounded default. Without FUZZ_SEED each
 * run draws a new seed, so every run of `npm test` explores other requests.
 */
export const fuzzRuns = (bounded: number): number => Number(process.env.FUZZ_RUNS ?? bounded);
const FUZZ_SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

export interface FuzzTarget {
  name: string;
  baseUrl: string;
  token: string;
  /** A site the target may audit, and an https webhook receiver it accepts. */
  site: string;
  hook: string;
  /** The team's stored resources, as one comparable text (cheap, read from the store itself). */
  snapshot(): Promise<string>;
  /** How requests reach it, when not the global `fetch` (which msw intercepts for the mock). */
  fetch?: typeof fetch;
}

export interface Seeded extends FuzzTarget {
  values: Record<string, string>;
}

export interface Answer {
  status: number;
  code: string | null;
  /** The fields of a 422 `validation_failed`, sorted: both targets must name the same. */
  fields?: string;
}

/**
 * Seeds the team through the API, alike on every target: a project whose default campaign has
 * a settled crawl and a ready export, a webhook, a tracked keyword, and spare resources that
 * the generated deletes may take.
 */
export async function seed(target: FuzzTarget): Promise<Seeded> {
  const client = createClient({ baseUrl: target.baseUrl, token: target.token, retries: 0 });
  const project = await client.projects.create({ url: target.site, name: 'Fuzz' });
  const campaign = (await client.campaigns.list({ project: project.id })).data[0];
  const launched = await client.crawls.launch({ campaign: campaign.id });
  const crawl = await client.waitForCrawl(launched.id, { intervalMs: 50 });
  const requested = await client.exports.create({ crawl: crawl.id, format: 'pdf' });
  const ready = await client.waitForExport(requested.id, { intervalMs: 50 });
  const webhook = await client.webhooks.create({ url: target.hook, events: ['crawl.completed'] });
  await client.positions.track({ project: project.id, keywords: ['fuzz'] });
  const spareProject = await client.projects.create({ url: target.site, name: 'Spare' });
  const spareCampaign = await client.campaigns.create({ project: project.id, name: 'Spare', start_url: target.site, max_depth: 1, max_urls: 10 });
  const spareWebhook = await client.webhooks.create({ url: target.hook, events: ['export.ready'] });
  return {
    ...target,
    values: {
      token: target.token,
      site: target.site,
      project: project.id,
      campaign: campaign.id,
      crawl: crawl.id,
      export: ready.id,
      webhook: webhook.id,
      spare_project: spareProject.id,
      spare_campaign: spareCampaign.id,
      spare_webhook: spareWebhook.id,
    },
  };
}

/** Sends a generated request to a target, with the target's own values in place. */
export async function send(target: Seeded, req: FuzzRequest): Promise<{ status: number; type: string; text: string }> {
  const values = { ...target.values, url: contract[req.op].sdk[0] === 'webhooks' ? target.hook : target.site };
  const url = new URL(`${target.baseUrl}${resolve(req.path, values)}`);
  for (const [k, v] of req.query) url.searchParams.append(k, resolve(v, values));
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) headers.set(k, resolve(v, values));
  const response = await (target.fetch ?? fetch)(url, { method: req.method, headers, body: req.body === undefined ? undefined : resolve(req.body, values) });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** What must hold for any answer; the list of what does not. */
export function violations(answer: { status: number; type: string; text: string }): { answer: Answer; problems: string[] } {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`status ${answer.status}: ${answer.text.slice(0, 300)}`);
  if (answer.status < 400) return { answer: { status: answer.status, code: null }, problems };
  if (!answer.type.startsWith('application/problem+json')) problems.push(`error as ${answer.type || 'no content type'}`);
  let body: { code?: unknown; status?: unknown; errors?: unknown } = {};
  try {
    body = JSON.parse(answer.text);
  } catch {
    problems.push(`error body is not JSON: ${answer.text.slice(0, 100)}`);
  }
  const code = typeof body.code === 'string' ? body.code : null;
  if (code === null || !(code in ERRORS)) problems.push(`code ${String(body.code)} is not in the catalogue`);
  else if (ERRORS[code as ErrorCode].status !== answer.status) problems.push(`${code} answered ${answer.status}, catalogue says ${ERRORS[code as ErrorCode].status}`);
  if (body.status !== answer.status) problems.push(`body status ${String(body.status)} differs from ${answer.status}`);
  if (code === 'validation_failed' && (typeof body.errors !== 'object' || body.errors === null)) problems.push('validation_failed without errors');
  const fields = code === 'validation_failed' && body.errors ? Object.keys(body.errors).sort().join(', ') : undefined;
  return { answer: { status: answer.status, code, fields }, problems };
}

/** Answers of the common rules, which never depend on timing: server and mock must always agree. */
const RULE_CODES = new Set(['validation_failed', 'unauthenticated', 'not_found', 'request.malformed_json', 'request.unsupported_media_type', 'idempotency.key_required', 'idempotency.key_invalid', 'pagination.invalid_cursor', 'token.missing_scope']);
/**
 * Operations whose business answer depends on background work, which the server runs in real
 * time and the mock instantly (a crawl still running on one is finished on the other).
 */
const TIMED: ReadonlySet<OperationId> = new Set<OperationId>([
  'launchCrawl', 'getCrawl', 'listCrawls', 'listOperations', 'getCrawlIssueSummary', 'listCrawlIssues', 'listCrawlPages', 'getCrawlPageByUrl', 'listCrawlPageInlinks', 'getCrawlPagespeed',
  'listCrawlChanges', 'getCrawlChangesSummary', 'listCrawlRecommendations',
  'createExport', 'getExport', 'downloadExport', 'checkKeyword', 'getPositions', 'testWebhook', 'listWebhookDeliveries', 'getProject', 'listProjects', 'getScorecard', 'getUsage',
]);

export function comparable(op: OperationId, a: Answer, b: Answer): boolean {
  return !TIMED.has(op) || RULE_CODES.has(a.code ?? '') || RULE_CODES.has(b.code ?? '');
}

export interface Tally {
  requests: number;
  refused: number;
  fiveXx: number;
  dataChanged: number;
  mismatches: number;
  /** Answers by status and code, for the report. */
  answers: Map<string, number>;
}

/** Sends a request to one target and checks it; a refused call must leave the snapshot as it was. */
async function probe(target: Seeded, req: FuzzRequest, tally: Tally, before: string): Promise<{ answer: Answer; after: string; problems: string[] }> {
  const raw = await send(target, req);
  const { answer, problems } = violations(raw);
  tally.requests++;
  const label = `${raw.status} ${answer.code ?? ''}`.trim();
  tally.answers.set(label, (tally.answers.get(label) ?? 0) + 1);
  if (raw.status >= 500) tally.fiveXx++;
  const after = await target.snapshot();
  if (raw.status >= 400) {
    tally.refused++;
    if (after !== before) {
      tally.dataChanged++;
      problems.push(`refused with ${answer.code} but stored data changed`);
    }
  }
  return { answer, after, problems: problems.map((p) => `${target.name}: ${p}`) };
}

/**
 * Runs `runs` generated requests against the targets (one, or the server then the mock) and
 * fails on the first request that breaks a property, shrunk by fast-check.
 */
export async function runFuzz(targets: Seeded[], tally: Tally, runs: number): Promise<void> {
  const snapshots = await Promise.all(targets.map((t) => t.snapshot()));
  await fc.assert(
    fc.asyncProperty(anyRequest, async (req) => {
      const problems: string[] = [];
      const answers: Answer[] = [];
      for (let i = 0; i < targets.length; i++) {
        const result = await probe(targets[i], req, tally, snapshots[i]);
        snapshots[i] = result.after;
        answers.push(result.answer);
        problems.push(...result.problems);
      }
      const [a, b] = answers;
      if (b && comparable(req.op, a, b) && (a.status !== b.status || a.code !== b.code || a.fields !== b.fields)) {
        tally.mismatches++;
        const text = (x: Answer) => `${x.status} ${x.code}${x.fields === undefined ? '' : ` (${x.fields})`}`;
        problems.push(`${targets[0].name} answered ${text(a)}, ${targets[1].name} ${text(b)}`);
      }
      expect(problems, `${req.method} ${req.path} ?${JSON.stringify(req.query)} ${JSON.stringify(req.headers)} ${req.body?.slice(0, 300)} [${req.mutations.join('; ')}]`).toEqual([]);
    }),
    { numRuns: runs, seed: FUZZ_SEED, endOnFailure: false, maxSkipsPerRun: 0 },
  );
}

export function newTally(): Tally {
  return { requests: 0, refused: 0, fiveXx: 0, dataChanged: 0, mismatches: 0, answers: new Map() };
}

export function report(name: string, tally: Tally): string {
  return `fuzz ${name}: ${tally.requests} requests, ${tally.refused} refused, 5xx ${tally.fiveXx}, refused calls that changed data ${tally.dataChanged}, server/mock mismatches ${tally.mismatches}; answers: ${[...tally.answers].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ×${n}`).join(', ')}`;
}
