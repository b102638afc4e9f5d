/**
 * `npm run check:generators`: docs/openapi.json as integrators in other stacks use it, with five
 * client generators pinned below. Opt-in (not in `npm ci` nor CI): it installs the generators
 * into a temporary folder with `npm install --prefix`, generates each client with its defaults
 * (options limited to authentication and header parameters), type-checks every output with a
 * typed adapter (scripts/generators/*.ts) under `tsc --strict`, then runs one flow per client
 * against a built server started here with `createSiteAuditServer`: webhook and its test, an
 * idempotent create and its replay, pagination, ETag and 304, campaign, two crawls of a local site
 * that changes between them (so that the changes hold page changes), pages, a page's inlinks by
 * cursor, issues, summary, changes, scorecard, an extension read, an export, a crawl stopped (its
 * campaign deleted) and one failed (an unreachable start URL), 401, 404 and 422. Every answer is validated
 * against the document with ajv (draft 2020-12, objects closed), and every webhook body as
 * delivered against `WebhookEvent`. Results: docs/openapi-clients.md.
 *
 * Options: `--dir <folder>` keeps and reuses an install folder (else a new temporary one, removed
 * at the end); `--only <name,…>` runs some of the generators; `--exchanges <file>` writes every
 * answer recorded, as JSON, for scripts/check-go-openapi.sh to validate with Go's kin-openapi.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { OpenApiChecker, recordingFetch, type Exchange } from '../tests/support/openapi-conformance.js';
import { BUILT_SERVER, close, startBuiltServer, startSite, startWebhookReceiver } from './flow-harness.js';
import type { Api, Setup } from './generators/api.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCUMENT = path.join(ROOT, 'docs/openapi.json');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const DEADLINE_MS = 90_000;

/** The generators and what their output needs at run time, pinned. */
const PINNED: Record<string, string> = {
  'openapi-typescript': '7.13.0',
  'openapi-fetch': '0.17.0',
  '@hey-api/openapi-ts': '0.85.2',
  orval: '7.13.2',
  axios: '1.7.9',
  'typed-openapi': '2.2.7',
  'openapi-zod-client': '1.18.3',
  '@zodios/core': '10.9.6',
  zod: '3.25.76',
};

/** Each generator: its command line (in the install folder) and the folder of its output. */
const GENERATORS: { name: string; folder: string; generate: (bin: (name: string) => string, out: string) => string[][] }[] = [
  { name: 'openapi-fetch', folder: 'ots', generate: (bin, out) => [[bin('openapi-typescript'), DOCUMENT, '-o', path.join(out, 'ots/schema.ts')]] },
  { name: 'hey-api', folder: 'hey', generate: (bin, out) => [[bin('openapi-ts'), '-i', DOCUMENT, '-o', path.join(out, 'hey'), '-c', '@hey-api/client-fetch']] },
  // headers: true keeps the required Idempotency-Key as an argument (a header option, as the issue allows).
  { name: 'orval', folder: 'orval', generate: (bin) => [[bin('orval'), '--config', 'orval.config.cjs']] },
  // Relative: typed-openapi 2.2.7 joins its working directory to any output path, an absolute one too.
  { name: 'typed-openapi', folder: 'typed', generate: (bin, out) => [[bin('typed-openapi'), DOCUMENT, '-o', path.relative(path.dirname(out), path.join(out, 'typed/api.ts'))]] },
  { name: 'openapi-zod-client', folder: 'zod', generate: (bin, out) => [[bin('openapi-zod-client'), DOCUMENT, '-o', path.join(out, 'zod/api.ts')]] },
];

const { values: args } = parseArgs({ options: { dir: { type: 'string' }, only: { type: 'string' }, exchanges: { type: 'string' } } });
const selected = GENERATORS.filter((g) => !args.only || args.only.split(',').includes(g.name));

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

function version(dir: string, name: string): string | null {
  const file = path.join(dir, 'node_modules', name, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : null;
}

function install(dir: string): void {
  const missing = Object.entries(PINNED).filter(([name, wanted]) => version(dir, name) !== wanted);
  if (missing.length === 0) return log(`generators already installed in ${dir}`);
  if (!existsSync(path.join(dir, 'package.json'))) writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
  log(`npm install --prefix ${dir} ${Object.entries(PINNED).map(([n, v]) => `${n}@${v}`).join(' ')}`);
  execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--save-exact', ...Object.entries(PINNED).map(([n, v]) => `${n}@${v}`)], { stdio: 'inherit' });
}

function generate(dir: string, out: string): void {
  rmSync(out, { recursive: true, force: true });
  for (const g of GENERATORS) mkdirSync(path.join(out, g.folder), { recursive: true });
  writeFileSync(
    path.join(dir, 'orval.config.cjs'),
    `module.exports = { siteaudit: { input: { target: ${JSON.stringify(DOCUMENT)} }, output: { target: ${JSON.stringify(path.join(out, 'orval/api.ts'))}, client: 'axios', headers: true } } };\n`,
  );
  const bin = (name: string) => path.join(dir, 'node_modules/.bin', name);
  for (const g of selected) {
    for (const [command, ...rest] of g.generate(bin, out)) execFileSync(command, rest, { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    log(`generated ${g.name}`);
  }
  // The adapters, type-checked with the output they use.
  const adapters = path.join(ROOT, 'scripts/generators');
  for (const file of readdirSync(adapters)) cpSync(path.join(adapters, file), path.join(out, file));
  writeFileSync(
    path.join(out, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          skipLibCheck: true,
          types: [],
        },
        files: ['api.ts', ...selected.map((g) => `${g.name}.ts`)],
      },
      null,
      2,
    ),
  );
}

/** tsc --strict over every selected output and its adapter: the errors by generator. */
function typeCheck(out: string): Map<string, string[]> {
  let output = '';
  try {
    execFileSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: out, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  const errors = new Map<string, string[]>(selected.map((g) => [g.name, []]));
  for (const line of output.split('\n').filter((l) => /error TS\d+/.test(l))) {
    const owner = selected.find((g) => line.startsWith(`${g.folder}/`) || line.startsWith(`${g.name}.ts`));
    (errors.get(owner?.name ?? selected[0].name) ?? []).push(line);
  }
  return errors;
}

async function until<T>(what: string | (() => string), check: () => Promise<T | undefined | false> | T | undefined | false, ms = DEADLINE_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function expect(what: string, ok: boolean, detail?: unknown): void {
  if (!ok) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail).slice(0, 500)}`}`);
}

interface Result {
  name: string;
  requests: number;
  violations: string[];
  events: string[];
  pageChanges: number;
  failure?: string;
}

/** The flow, through one generated client. */
async function flow(name: string, api: Api, receiver: { url: string; bodies: Map<string, string[]> }): Promise<{ events: string[]; pageChanges: number }> {
  const site = await startSite();
  try {
    const hook = await api.createWebhook(`${receiver.url}/${name}`, ['crawl.completed', 'crawl.failed', 'crawl.stopped', 'export.ready', 'recommendations.ready', 'signal.detected']);
    expect('webhook created', hook.status === 201, hook);
    expect('webhook test', (await api.testWebhook(hook.body.data.id)).status === 202);

    const created = await api.createProject(`${site.url}/`, `${name}-create`);
    const replayed = await api.createProject(`${site.url}/`, `${name}-create`);
    expect('idempotent create and replay', created.status === 201 && replayed.headers['idempotent-replayed'] === 'true' && replayed.body.data.id === created.body.data.id, [created.status, replayed.headers]);
    const project = created.body.data.id as string;
    await api.createProject(`${site.url}/second`);
    const first = await api.listProjects(1);
    expect('a first page', first.status === 200 && first.body.meta.has_more === true, first.body.meta);
    const second = await api.listProjects(1, first.body.meta.next_cursor);
    expect('the next page', second.status === 200 && second.body.data[0].id !== first.body.data[0].id);

    const read = await api.getProject(project);
    expect('a read with its ETag', read.status === 200 && Boolean(read.headers.etag), read.headers);
    expect('304 on If-None-Match', (await api.getProject(project, read.headers.etag)).status === 304);

    const campaign = await api.createCampaign(project, `Generated by ${name}`, `${site.url}/`);
    expect('campaign created', campaign.status === 201, campaign.body);
    const crawlOnce = async (key: string) => {
      const launched = await api.launchCrawl(campaign.body.data.id, key);
      expect('crawl launched', launched.status === 202, launched.body);
      const crawl = launched.body.data.id as string;
      await until('the crawl to settle', async () => (await api.getCrawl(crawl)).body.data.stage_plan.settled === true);
      return crawl;
    };
    const crawl1 = await crawlOnce(`${name}-crawl-1`);
    const pages = await api.listCrawlPages(crawl1, true);
    expect('internal pages', pages.status === 200 && pages.body.data.length > 0 && pages.body.data.every((p: { is_internal: boolean }) => p.is_internal));
    // A page's inlinks (an extension list), two pages of one.
    const home = pages.body.data.find((p: { depth: number | null }) => p.depth === 0).url as string;
    const inlinks = await api.listCrawlPageInlinks(crawl1, home, 1);
    expect('inlinks', inlinks.status === 200 && inlinks.body.data.length === 1 && inlinks.body.meta.has_more === true, inlinks.body);
    const more = await api.listCrawlPageInlinks(crawl1, home, 1, inlinks.body.meta.next_cursor);
    expect('inlinks, next page', more.status === 200 && more.body.data[0].url !== inlinks.body.data[0].url, more.body);
    for (const [what, answer] of [
      ['issues', await api.listCrawlIssues(crawl1)],
      ['issue summary', await api.getCrawlIssueSummary(crawl1)],
      ['scorecard', await api.getScorecard(project)],
      ['recommendations (extension)', await api.listCrawlRecommendations(crawl1)],
    ] as const) {
      expect(what, answer.status === 200, answer.body);
    }

    site.version = 2;
    const crawl2 = await crawlOnce(`${name}-crawl-2`);
    const changes = await api.listCrawlChanges(crawl2);
    expect('changes', changes.status === 200, changes.body);
    expect('page changes, their severity null', changes.pageChangeSeverities.length > 0 && changes.pageChangeSeverities.every((s) => s === null), changes.pageChangeSeverities);
    expect('export requested', (await api.createExport(crawl2)).status === 202);

    // crawl.stopped: a crawl of the site while it holds every answer, stopped by deleting its campaign.
    let release = () => {};
    site.gate = new Promise<void>((resolve) => (release = resolve));
    const held = await api.createCampaign(project, `Stopped by ${name}`, `${site.url}/`);
    const stopped = await api.launchCrawl(held.body.data.id, `${name}-stopped`);
    expect('crawl launched', stopped.status === 202, stopped.body);
    // Running, its first requests held: the stop aborts a fetch in progress.
    await until('the held crawl to run', async () => (await api.getCrawl(stopped.body.data.id)).body.data.status === 'running');
    const deleted = await api.deleteCampaign(held.body.data.id);
    release();
    site.gate = null;
    expect('campaign deleted, its crawl stopped', deleted.status === 204, deleted.body);

    // crawl.failed: a crawl whose start URL refuses connections (nothing listens on port 1).
    const dead = await api.createProject('http://127.0.0.1:1/');
    expect('a project on an unreachable site', dead.status === 201, dead.body);
    const deadCampaign = await api.createCampaign(dead.body.data.id, `Unreachable for ${name}`, 'http://127.0.0.1:1/');
    const failedLaunch = await api.launchCrawl(deadCampaign.body.data.id, `${name}-failed`);
    const failed = failedLaunch.body.data.id as string;
    const ended = await until('the unreachable crawl to settle', async () => {
      const state = (await api.getCrawl(failed)).body.data;
      return state.stage_plan.settled === true && state;
    });
    expect('the unreachable crawl failed', ended.status === 'failed' && typeof ended.error === 'string', ended);

    const anonymous = await api.getMeAnonymous();
    expect('401', anonymous.status === 401 && anonymous.body.code === 'unauthenticated', anonymous.body);
    expect('404', (await api.getProject('00000000-0000-4000-8000-000000000000')).status === 404);
    const invalid = await api.createProjectInvalid();
    expect('422 with errors', invalid.status === 422 && Object.keys(invalid.body.errors).length > 0, invalid.body);

    // Both crawls completed, their fix lists, the regression of the second, the export, the
    // stopped and the failed crawl, the test event: every event type, as the receiver got them.
    const bodies = () => (receiver.bodies.get(`/${name}`) ?? []).map((b) => (JSON.parse(b) as { type: string }).type);
    const every = ['crawl.completed', 'crawl.failed', 'crawl.stopped', 'export.ready', 'recommendations.ready', 'signal.detected', 'webhook.test'];
    // Deliveries are jobs behind the exports and crawls of every flow: on a loaded machine they take a while.
    await until(
      () => `the webhook deliveries (received: ${bodies().join(', ') || 'none'})`,
      () => bodies().filter((t) => t === 'crawl.completed').length >= 2 && every.every((type) => bodies().includes(type)),
      3 * DEADLINE_MS,
    );
    return { events: bodies(), pageChanges: changes.pageChangeSeverities.length };
  } finally {
    await close(site.server);
  }
}

async function main(): Promise<void> {
  if (!existsSync(BUILT_SERVER)) throw new Error(`${BUILT_SERVER} is missing: run npm run build first (npm run check:generators does)`);
  const dir = args.dir ? path.resolve(args.dir) : mkdtempSync(path.join(tmpdir(), 'siteaudit-generators-'));
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, 'out');
  const results: Result[] = [];
  const allExchanges: Exchange[] = [];
  try {
    install(dir);
    generate(dir, out);
    const started = Date.now();
    const compile = typeCheck(out);
    log(`type-checked under --strict in ${Math.round((Date.now() - started) / 1000)} s`);

    const server = await startBuiltServer();
    const { url, token } = server;
    const receiver = await startWebhookReceiver();
    const { bodies } = receiver;
    const checker = new OpenApiChecker(DOCUMENT);
    try {
      for (const g of selected) {
        const exchanges: Promise<Exchange>[] = [];
        const setup: Setup = { baseUrl: url, token, fetch: recordingFetch(exchanges), record: (x) => exchanges.push(Promise.resolve(x)) };
        const result: Result = { name: g.name, requests: 0, violations: [], events: [], pageChanges: 0 };
        try {
          const adapter = (await import(pathToFileURL(path.join(out, `${g.name}.ts`)).href)) as { create(setup: Setup): Api };
          result.pageChanges = (await flow(g.name, adapter.create(setup), receiver)).pageChanges;
        } catch (error) {
          result.failure = error instanceof Error ? error.message : String(error);
        }
        // Whatever the flow's end, every body received is counted and validated below.
        result.events = (bodies.get(`/${g.name}`) ?? []).map((body) => (JSON.parse(body) as { type: string }).type);
        const recorded = await Promise.all(exchanges);
        result.requests = recorded.length;
        allExchanges.push(...recorded);
        result.violations = [
          ...recorded.flatMap((x) => checker.check(x)),
          ...(bodies.get(`/${g.name}`) ?? []).flatMap((body) => checker.checkComponent('WebhookEvent', JSON.parse(body))),
        ];
        results.push(result);
        log(`flow ${g.name}: ${result.failure ? `FAILED (${result.failure})` : 'passed'}, ${result.requests} answers, ${result.violations.length} violations`);
      }
    } finally {
      await close(receiver.server);
      await server.close();
    }

    if (args.exchanges) writeFileSync(args.exchanges, JSON.stringify(allExchanges));
    log('\n| Generator | Version | tsc --strict | Flow | Answers validated | Page changes read (severity null) | Webhook bodies validated | Violations |');
    log('|---|---|---|---|---|---|---|---|');
    const versions: Record<string, string> = { 'openapi-fetch': `openapi-typescript ${PINNED['openapi-typescript']} + openapi-fetch ${PINNED['openapi-fetch']}`, 'hey-api': PINNED['@hey-api/openapi-ts'], orval: `${PINNED.orval} (axios ${PINNED.axios})`, 'typed-openapi': PINNED['typed-openapi'], 'openapi-zod-client': `${PINNED['openapi-zod-client']} (@zodios/core ${PINNED['@zodios/core']}, zod ${PINNED.zod})` };
    for (const r of results) {
      const errors = compile.get(r.name) ?? [];
      log(`| ${r.name} | ${versions[r.name]} | ${errors.length} errors | ${r.failure ? 'failed' : 'passed'} | ${r.requests} | ${r.pageChanges} | ${r.events.length} (${[...new Set(r.events)].sort().join(', ')}) | ${r.violations.length} |`);
    }
    const failed = results.filter((r) => r.failure || r.violations.length > 0 || (compile.get(r.name) ?? []).length > 0);
    for (const r of failed) {
      log(`\n${r.name}:`);
      for (const line of [...(compile.get(r.name) ?? []), ...(r.failure ? [r.failure] : []), ...r.violations].slice(0, 30)) log(`  ${line}`);
    }
    process.exitCode = failed.length > 0 ? 1 : 0;
  } finally {
    if (!args.dir) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`check:generators: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
