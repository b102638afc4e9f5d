/**
 * siteaudit-server: start the server, start a demo, or run operator tasks.
 *   siteaudit-server start [--port 8080] [--host 127.0.0.1] [--database <url-or-file>] [--public-url <url>]
 *   siteaudit-server dev   (a demo team and a printed token)
 *   siteaudit-server admin create-team|add-member|create-token|remove-member|set-plan|lock-project …
 * The database defaults to DATABASE_URL, else an SQLite file in the working directory.
 */
import { Command, InvalidArgumentError } from 'commander';
import { SCOPES, type Role, type Scope } from '@siteaudit/schema';
import { readFileSync } from 'node:fs';
import { AdminError } from './admin.js';
import { limitHeapGrowth } from './heap.js';
import { createLogger, parseLogLevel } from './observability/logger.js';
import { createDataForSeoKeywordData, createDataForSeoSerp, createLighthousePageSpeed, createPageSpeedInsights, type Providers } from './providers/index.js';
import { createSiteAuditServer, type SiteAuditServerOptions } from './server.js';

const DEFAULT_DATABASE = 'sqlite:./siteaudit.db';

function database(option: string | undefined): string {
  return option ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE;
}

function integer(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('Not a whole number.');
  return n;
}

function logLevel(value: string): string {
  try {
    return parseLogLevel(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

function scopes(value: string): Scope[] {
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (list.length === 1 && list[0] === 'all') return [...SCOPES];
  return list as Scope[];
}

/** PageSpeed: the PSI API with PAGESPEED_API_KEY, else Lighthouse on a local Chromium with PAGESPEED_PROVIDER=lighthouse. */
function pagespeedFromEnv(allowPrivateAddresses: boolean): Providers['pagespeed'] {
  if (process.env.PAGESPEED_API_KEY) return createPageSpeedInsights({ apiKey: process.env.PAGESPEED_API_KEY });
  if (process.env.PAGESPEED_PROVIDER === 'lighthouse') return createLighthousePageSpeed({ allowPrivateAddresses });
  return null;
}

/** Provider adapters configured from the environment; none is reported honestly as unconfigured. */
function providersFromEnv(allowPrivateAddresses = false): Providers {
  const providers: Providers = { pagespeed: pagespeedFromEnv(allowPrivateAddresses) };
  const login = process.env.DATAFORSEO_LOGIN;
  const password = process.env.DATAFORSEO_PASSWORD;
  if (!login || !password) return providers;
  return { ...providers, serp: createDataForSeoSerp({ login, password }), keywordData: createDataForSeoKeywordData({ login, password }) };
}

async function serve(options: SiteAuditServerOptions & { port: number; host: string }) {
  // A serving process runs crawls: keep its heap near its live size (src/heap.ts).
  limitHeapGrowth();
  const server = await createSiteAuditServer({ providers: providersFromEnv(options.network?.allowPrivateAddresses ?? false), ...options });
  const { url, metricsUrl } = await server.listen(options.port, options.host);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return { server, url, metricsUrl };
}

async function withAdmin<T>(db: string | undefined, task: (admin: Awaited<ReturnType<typeof createSiteAuditServer>>['admin']) => Promise<T>) {
  // An admin command never runs jobs: it would take over (or re-run) the serving process's work.
  const server = await createSiteAuditServer({ database: database(db), jobs: false });
  try {
    return await task(server.admin);
  } finally {
    await server.close();
  }
}

const program = new Command('siteaudit-server').description('Site Audit API reference server').showHelpAfterError();

program
  .command('start')
  .description('Start the API server')
  .option('-p, --port <port>', 'port to listen on', integer, Number(process.env.PORT ?? 8080))
  .option('--host <host>', 'interface to bind', process.env.HOST ?? '127.0.0.1')
  .option('-d, --database <url-or-file>', 'postgres:// URL, sqlite:./file.db or a file path (default: DATABASE_URL, else ./siteaudit.db)')
  .option('--allow-private-addresses', 'let crawls and webhooks reach private and loopback addresses', false)
  .option('--public-url <url>', 'URL clients reach the API at, base of absolute links (default: SITEAUDIT_PUBLIC_URL, else http://<host>:<port>)')
  .option('--shutdown-grace <seconds>', 'on SIGTERM, how long requests in flight may take to be answered', integer, 10)
  .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (default: LOG_LEVEL, else info)', logLevel)
  .option('--metrics', 'serve Prometheus metrics at /metrics on --metrics-port (not on the API port)', false)
  .option('--metrics-port <port>', 'port of the metrics endpoint', integer, 9464)
  .action(async (opts) => {
    const { url, metricsUrl } = await serve({
      logger: await createLogger({ level: opts.logLevel }),
      metrics: opts.metrics ? { port: opts.metricsPort, host: opts.host } : false,
      database: database(opts.database),
      shutdownGraceMs: opts.shutdownGrace * 1000,
      port: opts.port,
      host: opts.host,
      network: { allowPrivateAddresses: opts.allowPrivateAddresses },
      publicUrl: opts.publicUrl,
    });
    console.log(`Site Audit API listening on ${url}/v1`);
    if (metricsUrl) console.log(`Prometheus metrics on ${metricsUrl}`);
  });

program
  .command('dev')
  .description('Start with a demo team and print a ready token (crawls may reach local sites)')
  .option('-p, --port <port>', 'port to listen on', integer, Number(process.env.PORT ?? 8080))
  .option('-d, --database <url-or-file>', 'database (default: in memory)', 'sqlite::memory:')
  .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (default: LOG_LEVEL, else info)', logLevel)
  .action(async (opts) => {
    const { server, url } = await serve({ logger: await createLogger({ level: opts.logLevel, pretty: true }), database: opts.database, port: opts.port, host: '127.0.0.1', network: { allowPrivateAddresses: true } });
    const team = 'demo';
    await server.admin.createTeam({ slug: team, name: 'Demo', plan: 'agency' }).catch((e) => {
      if (!(e instanceof AdminError)) throw e;
    });
    const email = `owner+${Date.now()}@demo.test`;
    await server.admin.addMember({ team, email, name: 'Demo owner', role: 'owner' });
    const { token } = await server.admin.createToken({ team, member: email, name: 'dev', scopes: [...SCOPES], days: 90 });
    console.log(`Site Audit API (dev) listening on ${url}/v1\n`);
    console.log(`Token (shown once): ${token}\n`);
    console.log(`Try:\n  curl -H "Authorization: Bearer ${token}" ${url}/v1/me\n  curl -H "Authorization: Bearer ${token}" ${url}/v1/projects`);
  });

const admin = program.command('admin').description('Operator tasks on the database').option('-d, --database <url-or-file>', 'database (default: DATABASE_URL, else ./siteaudit.db)');

admin
  .command('create-team')
  .requiredOption('--slug <slug>')
  .requiredOption('--name <name>')
  .option('--plan <plan>', 'free, starter, pro or agency', 'pro')
  .action(async (opts, cmd) => {
    const team = await withAdmin(cmd.parent.opts().database, (a) => a.createTeam(opts));
    console.log(JSON.stringify(team));
  });

admin
  .command('add-member')
  .requiredOption('--team <slug>')
  .requiredOption('--email <email>')
  .requiredOption('--name <name>')
  .option('--role <role>', 'owner, admin or member', 'member')
  .action(async (opts, cmd) => {
    const member = await withAdmin(cmd.parent.opts().database, (a) => a.addMember({ ...opts, role: opts.role as Role }));
    console.log(JSON.stringify(member));
  });

admin
  .command('create-token')
  .requiredOption('--team <slug>')
  .requiredOption('--member <email>')
  .requiredOption('--name <name>')
  .option('--scopes <list>', `comma-separated, or "all" (${SCOPES.join(', ')})`, scopes, [...SCOPES])
  .option('--days <days>', 'lifetime in days, 1 to 365', integer, 90)
  .action(async (opts, cmd) => {
    const created = await withAdmin(cmd.parent.opts().database, (a) => a.createToken(opts));
    console.log(created.token);
  });

admin
  .command('remove-member')
  .requiredOption('--team <slug>')
  .requiredOption('--email <email>')
  .action(async (opts, cmd) => {
    await withAdmin(cmd.parent.opts().database, (a) => a.removeMember(opts));
  });

admin
  .command('set-plan')
  .requiredOption('--team <slug>')
  .requiredOption('--plan <plan>')
  .action(async (opts, cmd) => {
    await withAdmin(cmd.parent.opts().database, (a) => a.setPlan(opts));
  });

admin
  .command('link-search-console')
  .description('Link a Search Console property to a project with a service account key (JSON file)')
  .requiredOption('--project <id>')
  .requiredOption('--property <property>', 'sc-domain:example.com or https://www.example.com/')
  .requiredOption('--credentials <file>', 'service account key file')
  .action(async (opts, cmd) => {
    const credentials = readFileSync(opts.credentials, 'utf8');
    await withAdmin(cmd.parent.opts().database, (a) => a.linkSearchConsole({ projectId: opts.project, property: opts.property, credentials }));
  });

admin
  .command('lock-project')
  .requiredOption('--project <id>')
  .option('--unlock', 'make it writable again', false)
  .action(async (opts, cmd) => {
    await withAdmin(cmd.parent.opts().database, (a) => a.setProjectLocked(opts.project, !opts.unlock));
  });

program.parseAsync().catch((error: unknown) => {
  console.error(error instanceof AdminError ? error.message : error);
  process.exit(1);
});
