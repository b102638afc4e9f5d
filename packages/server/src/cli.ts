/**
 * siteaudit-server: start the server, start a demo, or run operator tasks.
 *   siteaudit-server start [--role all|api|worker] [--port 8080] [--host 127.0.0.1] [--database <url-or-file>] [--public-url <url>]
 *   siteaudit-server dev   (a demo team and a printed token)
 *   siteaudit-server admin [--json] create-team|add-member|create-token|remove-member|set-plan|link-search-console|lock-project
 *                                  |list-teams|list-members|list-tokens|revoke-token|delete-team …
 *   siteaudit-server --version
 * The database defaults to DATABASE_URL, else an SQLite file in the working directory.
 *
 * The server, the crawler and the providers are imported when a command serves: an admin command
 * loads only the store (src/admin.ts), and starts in a fraction of the time (docs/benchmarks.md).
 */
import { Command, Help, InvalidArgumentError, Option } from 'commander';
import { SCOPES, type Role, type Scope } from '@siteaudit/schema';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { AdminError, openAdmin, type Admin } from './admin.js';
import { limitHeapGrowth } from './heap.js';
import { createLogger, parseLogLevel } from './observability/logger.js';
import { describeStartupError } from './startup-errors.js';
import { sqliteFile } from './store/database.js';
import type { Providers } from './providers/index.js';
import type { ServerRole, SiteAuditServerOptions } from './server.js';

/** Here rather than imported from server.js, which an admin command must not load. */
const ROLES: readonly ServerRole[] = ['all', 'api', 'worker'];

/** A refusal the user can act on: printed as its message alone, without a stack. */
class CliError extends Error {}

const DEFAULT_DATABASE = 'sqlite:./siteaudit.db';

function database(option: string | undefined): string {
  return option ?? (process.env.DATABASE_URL || DEFAULT_DATABASE);
}

/** The package's version, from the package.json beside src/ and dist/. */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** Whether the user asked for stacks: `--log-level debug` or `trace` (or LOG_LEVEL). */
function wantsStack(argv: readonly string[]): boolean {
  const at = argv.findIndex((a) => a === '--log-level' || a.startsWith('--log-level='));
  const level = at === -1 ? process.env.LOG_LEVEL : argv[at].includes('=') ? argv[at].split('=')[1] : argv[at + 1];
  return level === 'debug' || level === 'trace';
}

/** The --database (or -d) value of the command line, for the messages that name it. */
function databaseArgument(argv: readonly string[]): string | undefined {
  const at = argv.findIndex((a) => a === '--database' || a === '-d' || a.startsWith('--database='));
  if (at === -1) return undefined;
  return argv[at].startsWith('--database=') ? argv[at].slice('--database='.length) : argv[at + 1];
}

/**
 * Help with required options marked, so nobody learns of them from an error, and without the
 * `(default: false)` of every flag.
 */
function optionDescription(this: Help, option: Option): string {
  const text = Help.prototype.optionDescription.call(this, option).replace(/ \(default: false\)$/, '');
  return option.mandatory ? `(required) ${text}` : text;
}

/** Lines of help text longer than the terminal (or 80 columns), wrapped between words with their indentation. */
export function wrapHelp(text: string, width = process.stdout.columns || 80): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= width) return line;
      const indent = /^\s*/.exec(line)![0];
      const out: string[] = [];
      let current = '';
      for (const word of line.slice(indent.length).split(' ')) {
        if (current && indent.length + current.length + 1 + word.length > width) {
          out.push(indent + current);
          current = word;
        } else current = current ? `${current} ${word}` : word;
      }
      out.push(indent + current);
      return out.join('\n');
    })
    .join('\n');
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

function role(value: string): ServerRole {
  if (!ROLES.includes(value as ServerRole)) throw new InvalidArgumentError(`Choose all, api or worker.`);
  return value as ServerRole;
}

function scopes(value: string): Scope[] {
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (list.length === 1 && list[0] === 'all') return [...SCOPES];
  return list as Scope[];
}

/** Provider adapters configured from the environment; none is reported honestly as unconfigured. */
async function providersFromEnv(allowPrivateAddresses = false): Promise<Providers> {
  const { createDataForSeoKeywordData, createDataForSeoSerp, createLighthousePageSpeed, createPageSpeedInsights } = await import('./providers/index.js');
  // PageSpeed: the PSI API with PAGESPEED_API_KEY, else Lighthouse on a local Chromium with PAGESPEED_PROVIDER=lighthouse.
  const pagespeed = process.env.PAGESPEED_API_KEY
    ? createPageSpeedInsights({ apiKey: process.env.PAGESPEED_API_KEY })
    : process.env.PAGESPEED_PROVIDER === 'lighthouse'
      ? createLighthousePageSpeed({ allowPrivateAddresses })
      : null;
  const providers: Providers = { pagespeed };
  const login = process.env.DATAFORSEO_LOGIN;
  const password = process.env.DATAFORSEO_PASSWORD;
  if (!login || !password) return providers;
  return { ...providers, serp: createDataForSeoSerp({ login, password }), keywordData: createDataForSeoKeywordData({ login, password }) };
}

/**
 * The SQLite file a start would create (none for PostgreSQL, memory, or a file that exists), and
 * a function that removes it with its journal files: a start that fails (a taken port, a refused
 * option) leaves no new database behind.
 */
function newSqliteFile(option: SiteAuditServerOptions['database']): () => void {
  let file: string | null = null;
  try {
    file = typeof option === 'string' ? sqliteFile(option) : null;
  } catch {
    // An option the store refuses: it says so when the server opens it.
  }
  if (!file || file === ':memory:' || existsSync(file)) return () => undefined;
  const created = file;
  return () => {
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${created}${suffix}`, { force: true });
  };
}

async function serve(options: SiteAuditServerOptions & { port: number; host: string }) {
  const { createSiteAuditServer } = await import('./server.js');
  // A serving process runs crawls: keep its heap near its live size (src/heap.ts).
  limitHeapGrowth();
  const removeNewDatabase = newSqliteFile(options.database);
  const server = await createSiteAuditServer({ providers: await providersFromEnv(options.network?.allowPrivateAddresses ?? false), ...options }).catch((error: unknown) => {
    removeNewDatabase();
    throw error;
  });
  const { url, metricsUrl } = await server.listen(options.port, options.host).catch(async (error: NodeJS.ErrnoException) => {
    await server.close();
    removeNewDatabase();
    if (error.code === 'EADDRINUSE') throw new CliError(`Port ${options.port} is already in use: choose another with --port or PORT`);
    if (error.code === 'EACCES') throw new CliError(`Port ${options.port} needs privileges this user lacks: choose another with --port or PORT`);
    throw error;
  });
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return { server, url, metricsUrl };
}

/**
 * Where problem `type` links point when no documentation URL is configured: this server's own
 * errors page (`<public URL>/docs`), so that they resolve on a local server too. Undefined when
 * SITEAUDIT_DOCS_URL is set (the server reads it).
 */
function localDocs(publicUrl: string | undefined, host: string, port: number): string | undefined {
  // A port the server will refuse has its own message (describeStartupError): no link built on it.
  if (process.env.SITEAUDIT_DOCS_URL || !Number.isInteger(port) || port < 1 || port > 65_535) return undefined;
  const base = publicUrl ?? process.env.SITEAUDIT_PUBLIC_URL ?? `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}`;
  return `${base.replace(/\/+$/, '')}/docs`;
}

/** What `start` says on a database with no team yet: the exact commands that give a token. */
async function firstSteps(admin: Admin, databaseOption: string | undefined): Promise<string> {
  if ((await admin.listTeams()).length > 0) return 'Tokens: npx siteaudit-server admin --help (list-tokens, create-token, revoke-token)';
  const db = databaseOption ? ` --database ${JSON.stringify(databaseOption)}` : '';
  return [
    'No team yet. In another terminal, create one, a member and a token (shown once):',
    `  npx siteaudit-server admin${db} create-team --slug acme --name Acme --plan agency`,
    `  npx siteaudit-server admin${db} add-member --team acme --email me@acme.test --name Me --role owner`,
    `  npx siteaudit-server admin${db} create-token --team acme --member me@acme.test --name cli --scopes all`,
    'Or try it with no setup: npm run dev (an in-memory server with a demo team and a ready token).',
  ].join('\n');
}

async function withAdmin<T>(db: string | undefined, task: (admin: Admin) => Promise<T>) {
  // An admin command never runs jobs: it would take over (or re-run) the serving process's work.
  const { admin, close } = await openAdmin({ database: database(db) });
  try {
    return await task(admin);
  } finally {
    await close();
  }
}

/** What an admin command did: a sentence for people, or one JSON line with `--json` for scripts. */
function report(cmd: Command, result: object, text: string): void {
  console.log(cmd.optsWithGlobals().json ? JSON.stringify(result) : text);
}

const program = new Command('siteaudit-server')
  .description('Site Audit API reference server')
  .version(version(), '-V, --version', 'print the version')
  .showHelpAfterError('(add --help to see the options)');
// Inherited by every command defined below; the text added after a command's help is wrapped too.
program.configureHelp({ optionDescription });
program.configureOutput({ writeOut: (text) => process.stdout.write(wrapHelp(text)) });

program
  .command('start')
  .description('Start the API server, a worker, or both (docs/deployment.md)')
  .option('--role <role>', 'all: the API and the jobs; api: the API only, jobs are queued for workers; worker: the jobs, with only /healthz, /readyz (and metrics) on --port; SITEAUDIT_ROLE sets the default', role, process.env.SITEAUDIT_ROLE ?? 'all')
  .option('-p, --port <port>', 'port to listen on (a worker serves /healthz and /readyz there)', integer, Number(process.env.PORT ?? 8080))
  .option('--host <host>', 'interface to bind', process.env.HOST ?? '127.0.0.1')
  .option('-d, --database <url-or-file>', 'postgres:// URL, sqlite:./file.db or a file path (default: DATABASE_URL, else ./siteaudit.db)')
  .option('--allow-private-addresses', 'let crawls and webhooks reach private and loopback addresses', false)
  .option('--public-url <url>', 'URL clients reach the API at, base of absolute links (default: SITEAUDIT_PUBLIC_URL, else http://<host>:<port>)')
  .option('--docs-url <url>', 'documentation base of problem types, <url>/errors#<code> (default: SITEAUDIT_DOCS_URL, else this server\'s own /docs)')
  .addOption(new Option('--shutdown-delay <seconds>', 'on SIGTERM, how long requests are still served after /readyz turned 503, for a load balancer to stop sending').argParser(integer).default(0).env('SITEAUDIT_SHUTDOWN_DELAY'))
  .option('--shutdown-grace <seconds>', 'on SIGTERM, once new requests are refused (after the delay), how long requests in flight may take to be answered', integer, 10)
  .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (default: LOG_LEVEL, else info)', logLevel)
  .option('--metrics', 'serve Prometheus metrics at /metrics on --metrics-port (not on the API port)', false)
  .option('--metrics-port <port>', 'port of the metrics endpoint', integer, 9464)
  .addOption(new Option('--crawl-threads <n>', 'worker threads that run crawls, off the thread that answers HTTP, plus n-1 that analyse their pages; 0 runs crawls on it (default: one per core)').argParser(integer).env('SITEAUDIT_CRAWL_THREADS'))
  .addHelpText(
    'after',
    '\nEvery role answers GET /healthz (the process is alive) and GET /readyz (database reachable, migrations applied, ' +
      'jobs running where the role runs them; 503 otherwise and once shutdown began) on --port, without a token.\n' +
      'Several processes share one PostgreSQL database: api nodes behind a load balancer, worker nodes (docs/deployment.md).',
  )
  .action(async (opts) => {
    // The default comes from SITEAUDIT_ROLE unchecked by commander: checked here.
    if (!ROLES.includes(opts.role)) throw new CliError(`SITEAUDIT_ROLE must be all, api or worker, not "${opts.role}"`);
    const logger = await createLogger({ level: opts.logLevel });
    const { server, url, metricsUrl } = await serve({
      role: opts.role,
      logger,
      metrics: opts.metrics ? { port: opts.metricsPort, host: opts.host } : false,
      database: database(opts.database),
      shutdownDelayMs: opts.shutdownDelay * 1000,
      shutdownGraceMs: opts.shutdownGrace * 1000,
      port: opts.port,
      host: opts.host,
      network: { allowPrivateAddresses: opts.allowPrivateAddresses },
      publicUrl: opts.publicUrl,
      docsUrl: opts.docsUrl ?? localDocs(opts.publicUrl, opts.host, opts.port),
      crawlThreads: opts.crawlThreads,
    });
    if (opts.role === 'worker') console.log(`Site Audit worker listening on ${url} for health checks only (/healthz, /readyz); it runs the jobs, not the API`);
    else console.log(`Site Audit API listening on ${url}/v1 (reference: ${url}/docs)${opts.role === 'api' ? ' (role api: jobs run on worker processes)' : ''}; health checks on ${url}/healthz and ${url}/readyz`);
    if (metricsUrl) console.log(`Prometheus metrics on ${metricsUrl}`);
    if (opts.allowPrivateAddresses) console.log('Crawls and webhooks may reach private and loopback addresses (--allow-private-addresses)');
    if (opts.role !== 'worker') console.log(await firstSteps(server.admin, opts.database));
    logger.info({ url, role: opts.role, version: version(), metrics: metricsUrl }, 'server started');
  });

program
  .command('dev')
  .description('Start with a demo team and print a ready token (crawls may reach local sites)')
  .option('-p, --port <port>', 'port to listen on', integer, Number(process.env.PORT ?? 8080))
  .addOption(new Option('-d, --database <url-or-file>', 'database').default('sqlite::memory:', 'in memory'))
  .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (default: LOG_LEVEL, else info)', logLevel)
  .action(async (opts) => {
    const { server, url } = await serve({
      logger: await createLogger({ level: opts.logLevel, pretty: true }),
      database: opts.database,
      port: opts.port,
      host: '127.0.0.1',
      network: { allowPrivateAddresses: true },
      docsUrl: localDocs(undefined, '127.0.0.1', opts.port),
    });
    const team = 'demo';
    await server.admin.createTeam({ slug: team, name: 'Demo', plan: 'agency' }).catch((e) => {
      if (!(e instanceof AdminError)) throw e;
    });
    const email = `owner+${Date.now()}@demo.test`;
    await server.admin.addMember({ team, email, name: 'Demo owner', role: 'owner' });
    const { token } = await server.admin.createToken({ team, member: email, name: 'dev', scopes: [...SCOPES], days: 90 });
    console.log(`Site Audit API (dev) listening on ${url}/v1 (reference: ${url}/docs)`);
    console.log('Crawls and webhooks may reach private and loopback addresses (local sites): `start` refuses them unless --allow-private-addresses.\n');
    console.log(`Token (shown once): ${token}\n`);
    console.log(`Try:\n  curl -H "Authorization: Bearer ${token}" ${url}/v1/me\n  curl -H "Authorization: Bearer ${token}" ${url}/v1/projects`);
  });

const admin = program
  .command('admin')
  .description('Operator tasks on the database: teams, members, tokens, plans, Search Console links, locks')
  .option('-d, --database <url-or-file>', 'database (default: DATABASE_URL, else ./siteaudit.db)')
  .option('--json', 'print the result as one JSON line, for scripts');

admin
  .command('create-team')
  .description('Create a team')
  .requiredOption('--slug <slug>', 'lowercase letters, digits and dashes')
  .requiredOption('--name <name>', 'display name')
  .option('--plan <plan>', 'free, starter, pro or agency', 'pro')
  .action(async (opts, cmd) => {
    const team = await withAdmin(cmd.optsWithGlobals().database, (a) => a.createTeam(opts));
    report(cmd, team, `Created team ${team.slug} ("${team.name}") on plan ${team.plan}, id ${team.id}`);
  });

admin
  .command('add-member')
  .description('Add a member to a team (or bring back a removed one, with no token)')
  .requiredOption('--team <slug>', 'the team')
  .requiredOption('--email <email>', "the member's email")
  .requiredOption('--name <name>', "the member's name")
  .option('--role <role>', 'owner, admin or member', 'member')
  .action(async (opts, cmd) => {
    const member = await withAdmin(cmd.optsWithGlobals().database, (a) => a.addMember({ ...opts, role: opts.role as Role }));
    report(cmd, { team: opts.team, ...member }, `Added ${member.email} to team ${opts.team} as ${member.role}, id ${member.id}`);
  });

admin
  .command('create-token')
  .description("Create an API token for a member; the secret is printed once, only its hash is kept")
  .requiredOption('--team <slug>', 'the team')
  .requiredOption('--member <email>', "the member's email")
  .requiredOption('--name <name>', 'what the token is for')
  .addOption(new Option('--scopes <list>', `comma-separated, or "all" (${SCOPES.join(', ')})`).argParser(scopes).default([...SCOPES], 'all'))
  .option('--days <days>', 'lifetime in days, 1 to 365', integer, 90)
  .action(async (opts, cmd) => {
    const created = await withAdmin(cmd.optsWithGlobals().database, (a) => a.createToken(opts));
    const granted = [...new Set(opts.scopes as Scope[])];
    report(
      cmd,
      { ...created, team: opts.team, member: opts.member, name: opts.name, scopes: granted },
      `Created token "${opts.name}" for ${opts.member} in team ${opts.team}, expires ${created.expires_at.slice(0, 10)}, scopes ${granted.join(', ')}.\n` +
        `It is shown once, keep it now:\n${created.token}`,
    );
  });

admin
  .command('remove-member')
  .description("Remove a member from a team: their tokens stop working at once")
  .requiredOption('--team <slug>', 'the team')
  .requiredOption('--email <email>', "the member's email")
  .action(async (opts, cmd) => {
    await withAdmin(cmd.optsWithGlobals().database, (a) => a.removeMember(opts));
    report(cmd, { team: opts.team, email: opts.email, removed: true }, `Removed ${opts.email} from team ${opts.team}: their tokens no longer work`);
  });

admin
  .command('set-plan')
  .description("Change a team's plan; its quotas and limits apply from the next request")
  .requiredOption('--team <slug>', 'the team')
  .requiredOption('--plan <plan>', 'free, starter, pro or agency')
  .action(async (opts, cmd) => {
    const changed = await withAdmin(cmd.optsWithGlobals().database, (a) => a.setPlan(opts));
    report(cmd, changed, changed.previous_plan === changed.plan ? `Team ${changed.team} was already on plan ${changed.plan}` : `Team ${changed.team} moved from plan ${changed.previous_plan} to ${changed.plan}`);
  });

admin
  .command('link-search-console')
  .description('Link a Search Console property to a project with a service account key (JSON file)')
  .requiredOption('--project <id>', 'the project')
  .requiredOption('--property <property>', 'sc-domain:example.com or https://www.example.com/')
  .requiredOption('--credentials <file>', 'service account key file')
  .action(async (opts, cmd) => {
    const credentials = readFileSync(opts.credentials, 'utf8');
    const link = await withAdmin(cmd.optsWithGlobals().database, (a) => a.linkSearchConsole({ projectId: opts.project, property: opts.property, credentials }));
    report(cmd, link, `Linked ${link.property} to project ${link.project_id}: the first sync is queued for the serving process`);
  });

admin
  .command('lock-project')
  .description('Make a project read-only (or writable again with --unlock)')
  .requiredOption('--project <id>', 'the project')
  .option('--unlock', 'make it writable again', false)
  .action(async (opts, cmd) => {
    const locked = !opts.unlock;
    await withAdmin(cmd.optsWithGlobals().database, (a) => a.setProjectLocked(opts.project, locked));
    report(cmd, { project_id: opts.project, locked }, locked ? `Locked project ${opts.project}: it is read-only` : `Unlocked project ${opts.project}: it is writable again`);
  });

admin
  .command('list-teams')
  .description('List the teams: slug, plan, current members')
  .action(async (_opts, cmd) => {
    const teams = await withAdmin(cmd.optsWithGlobals().database, (a) => a.listTeams());
    report(
      cmd,
      teams,
      teams.length === 0
        ? 'No team yet: create one with admin create-team --slug <slug> --name <name> --plan agency'
        : teams.map((t) => `${t.slug}  "${t.name}"  plan ${t.plan}, ${t.members} member${t.members === 1 ? '' : 's'}, id ${t.id}`).join('\n'),
    );
  });

admin
  .command('list-members')
  .description("List a team's members with their roles (removed ones marked)")
  .requiredOption('--team <slug>', 'the team')
  .action(async (opts, cmd) => {
    const members = await withAdmin(cmd.optsWithGlobals().database, (a) => a.listMembers(opts));
    report(
      cmd,
      members,
      members.length === 0
        ? `No member in team ${opts.team}: add one with admin add-member --team ${opts.team} --email <email> --name <name> --role owner`
        : members.map((m) => `${m.email}  "${m.name}"  ${m.role}${m.removed_at ? `, removed ${m.removed_at.slice(0, 10)}` : ''}, id ${m.id}`).join('\n'),
    );
  });

admin
  .command('list-tokens')
  .description("List a team's tokens: name, holder, scopes, dates (never the secret, which is not kept)")
  .requiredOption('--team <slug>', 'the team')
  .option('--member <email>', "only this member's tokens")
  .action(async (opts, cmd) => {
    const tokens = await withAdmin(cmd.optsWithGlobals().database, (a) => a.listTokens(opts));
    report(
      cmd,
      tokens,
      tokens.length === 0
        ? `No token in team ${opts.team}${opts.member ? ` for ${opts.member}` : ''}`
        : tokens
            .map(
              (t) =>
                `${t.id}  "${t.name}"  ${t.member}, ${t.active ? `expires ${t.expires_at.slice(0, 10)}` : 'no longer works'}, ` +
                `last used ${t.last_used_at ? t.last_used_at.slice(0, 10) : 'never'}, scopes ${t.scopes.length === SCOPES.length ? 'all' : t.scopes.join(', ')}`,
            )
            .join('\n'),
    );
  });

admin
  .command('revoke-token')
  .description('Revoke a token by its id (admin list-tokens shows it): it stops working at once')
  .requiredOption('--team <slug>', 'the team')
  .requiredOption('--id <token-id>', 'the token id')
  .action(async (opts, cmd) => {
    const revoked = await withAdmin(cmd.optsWithGlobals().database, (a) => a.revokeToken(opts));
    report(cmd, revoked, `Revoked token "${revoked.name}" (${revoked.id}) of team ${revoked.team}: it no longer works`);
  });

admin
  .command('delete-team')
  .description('Delete a team and everything of it: members, tokens, projects, crawls, webhooks, log imports, export files')
  .argument('<slug>', 'the team')
  .option('--yes', 'confirm: the deletion cannot be undone', false)
  .addHelpText('after', '\nIts tokens stop working at once and its running crawls are stopped first.')
  .action(async (slug: string, opts, cmd) => {
    // Nothing else of the admin destroys this much at once: a typed slug alone does not.
    if (!opts.yes) throw new CliError(`Deleting team ${slug} removes its projects, crawls, webhooks, log imports and export files for good: run again with --yes`);
    const deleted = await withAdmin(cmd.optsWithGlobals().database, (a) => a.deleteTeam(slug));
    report(cmd, deleted, `Deleted team ${deleted.team} (id ${deleted.id}) with its ${deleted.projects} project${deleted.projects === 1 ? '' : 's'}: its tokens no longer work`);
  });

program.parseAsync().catch((error: unknown) => {
  const stack = wantsStack(process.argv);
  if (error instanceof AdminError || error instanceof CliError) {
    console.error(error.message);
  } else {
    // A start-up mistake in one line (what is wrong, how to fix it); the stack on request.
    const line = describeStartupError(error, { database: database(databaseArgument(process.argv)) });
    console.error(line ?? `${error instanceof Error ? error.message : String(error)}${stack ? '' : ' (run with --log-level debug for the stack)'}`);
  }
  if (stack && error instanceof Error && error.stack) console.error(error.stack);
  process.exit(1);
});
