/**
 * createSiteAuditServer: the embeddable reference server (README, "Embedded in your own Express
 * app"). It opens the store, runs the migrations, builds the modules (docs/architecture.md) and
 * assembles the HTTP app from the contract, for the role the process has (docs/deployment.md).
 */
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type Server as HttpServer } from 'node:http';
import type { Knex } from 'knex';
import { createAdmin, type Admin } from './admin.js';
import { createSecretBox } from './crypto/secret-box.js';
import { serverSecret } from './crypto/server-secret.js';
import { EventBus } from './events/bus.js';
import { answerMetrics, createApp, workerApp, type ServedApp } from './http/app.js';
import { requestObserver, requestPath } from './http/request-log.js';
import { resolveLogger, type LoggerOption } from './observability/logger.js';
import { createMetrics } from './observability/metrics.js';
import type { Registry } from 'prom-client';
import { ServerConnections } from './http/connections.js';
import { RequestDrain } from './http/drain.js';
import { answerClientError } from './http/client-error.js';
import { createJobRunner } from './jobs/index.js';
import { Authenticator } from './http/auth.js';
import type { Handlers } from './http/binder.js';
import { CursorCodec } from './http/cursor.js';
import { IdempotencyStore } from './http/idempotency.js';
import { listenBase, parsePublicUrl, PublicLinks } from './http/public-url.js';
import { createMemoryRateLimiter, createPostgresRateLimiter } from './http/rate-limit.js';
import { accountModule, QuotaReader } from './modules/account/index.js';
import { campaignsModule } from './modules/campaigns/index.js';
import { crawlsModule } from './modules/crawls/index.js';
import { defaultExportDirectory, exportsModule, type ExportsOptions } from './modules/exports/index.js';
import { scorecardModule } from './modules/scorecard/index.js';
import { defaultLogDirectory, logsModule, type LogsOptions } from './modules/logs/index.js';
import { positionsModule } from './modules/positions/index.js';
import { searchConsoleModule } from './modules/search-console/index.js';
import type { Providers } from './providers/index.js';
import { projectsModule } from './modules/projects/index.js';
import { checkModules, handlersOf, type ServerModule } from './modules/module.js';
import { createHealthProbe } from './http/health.js';
import { webhooksModule, webhooksOptions, type WebhooksOptions } from './modules/webhooks/index.js';
import { problemTypeBase, resolvePlans, type PlanOverrides } from '@siteaudit/schema/rules';
import { DEFAULT_DOCS_URL } from '@siteaudit/schema/openapi';
import type { Services } from './services.js';
import { closeDatabase, migrate, openDatabase, type Database, type DatabaseOption } from './store/database.js';
import { storeId } from './store/store-id.js';

/** How long an idle keep-alive connection stays open (docs/deployment.md, "Keep-alive"). */
export const KEEP_ALIVE_MS = 65_000;

export interface SiteAuditServerOptions {
  /** `sqlite::memory:`, a file path or `sqlite:./file.db`, a `postgres://` URL, or a knex instance. Default `sqlite:./siteaudit.db`. */
  database?: DatabaseOption;
  /** Deep-merged over the default plan catalogue. */
  plans?: PlanOverrides;
  /** Every time rule reads this clock. */
  clock?: () => Date;
  /**
   * Development only: crawls and webhooks may reach loopback and private addresses, and webhook
   * URLs may be http (docs/decisions/outbound-addresses.md). Default false.
   */
  network?: { allowPrivateAddresses?: boolean };
  /**
   * The URL clients reach the API at, e.g. `https://api.example.com/siteaudit`: the base of every
   * absolute link in answers and webhooks. Default: SITEAUDIT_PUBLIC_URL, else the address
   * `listen()` binds; never the request's Host header (docs/decisions/public-url.md).
   */
  publicUrl?: string;
  /**
   * The documentation base: every problem `type` is `<docsUrl>/errors#<code>`. Default:
   * SITEAUDIT_DOCS_URL, else https://siteaudit.dev/docs. The server serves its own reference at
   * /docs (docs/decisions/api-reference.md): set `<publicUrl>/docs` to point answers there.
   */
  docsUrl?: string;
  /**
   * Failed authentications a client address may make per minute before its failing requests get
   * 429 instead of 401 (default 20; null: no limit). Valid tokens are never refused for it.
   */
  authFailuresPerMinute?: number | null;
  /** PageSpeed, SERP, keyword-data and Search Console adapters (src/providers); none configured is reported honestly. */
  providers?: Providers;
  /** Where export files are kept and for how long (default 7 days). */
  exports?: ExportsOptions;
  /** Webhook deliveries: how long a receiver has to answer an attempt (default 10 s). */
  webhooks?: WebhooksOptions;
  /** Log imports (extension, docs/decisions/logs.md): where uploads wait, the reverse-DNS adapter, threads. */
  logs?: LogsOptions;
  /**
   * Worker threads that run this process's crawls (docs/architecture.md, "Where a crawl runs"):
   * started with the first crawl, up to this many; several crawls share a thread. 0 runs crawls
   * on the thread that answers HTTP. Default: one per core (os.availableParallelism()).
   */
  crawlThreads?: number;
  /**
   * Page-analysis threads the crawl threads hand HTML pages to. Default: the cores beyond two
   * (one for a crawl thread, one for the thread that answers HTTP), at most crawlThreads − 1; on 2
   * cores none up front, and one once a crawl's pages take half its crawl thread's time (large
   * pages do; a site of small pages never starts it). A number given here is what runs.
   */
  crawlAnalysisThreads?: number;
  /**
   * Answers web pages of other origins (docs/decisions/cors.md): `Access-Control-Allow-Origin: *`
   * on the API and its OpenAPI documents, and preflights answered 204. Safe with any origin: the
   * API takes bearer tokens, never cookies. false leaves CORS to an application embedding
   * `server.app`. Default true.
   */
  cors?: boolean;
  /** Encrypts secrets at rest and signs cursors. Default: SITEAUDIT_SECRET_KEY, else a key kept in the database. */
  secretKey?: string;
  /** Check every response against the contract. Default: on under NODE_ENV=test. */
  validateResponses?: boolean;
  /**
   * A pino logger (the server logs with children of it: `{ module: 'crawls' }`…), or false for
   * none. Default: warnings and errors to stderr, LOG_LEVEL overriding the level (docs/operations.md).
   * `{ error(message, error) }`, the former option, still receives the errors.
   */
  logger?: LoggerOption;
  /**
   * Prometheus metrics (docs/operations.md): true serves them at GET /metrics of `app`; `{ port }`
   * serves them on a port of their own opened by `listen()`, so they are not public on the API's.
   * Default off.
   */
  metrics?: boolean | { port: number; host?: string };
  /**
   * What this process does (docs/deployment.md): `all` serves the API and runs the durable jobs
   * (crawls, deliveries, exports, the scheduler); `api` serves the API and only queues jobs for
   * others to run; `worker` runs the jobs and serves only /healthz, /readyz (and /metrics when
   * asked), not /v1. Default `all`, or `api` when `jobs: false`.
   */
  role?: ServerRole;
  /** false: the same as `role: 'api'` (the former option). */
  jobs?: boolean;
  /**
   * At close (SIGTERM), once new requests are refused (after `shutdownDelayMs`), how long requests
   * in flight may take to be answered; connections still open then are destroyed. Default 10 s.
   */
  shutdownGraceMs?: number;
  /**
   * At close (SIGTERM), how long requests are still served after `/readyz` turned 503, before new
   * ones are refused and the listener closes: the time a load balancer needs to stop sending
   * (docs/deployment.md, "Graceful shutdown"). Default 0.
   */
  shutdownDelayMs?: number;
}

export const SERVER_ROLES = ['all', 'api', 'worker'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

function serverRole(options: SiteAuditServerOptions): ServerRole {
  const role = options.role ?? (options.jobs === false ? 'api' : 'all');
  if (!SERVER_ROLES.includes(role)) throw new Error(`role must be one of ${SERVER_ROLES.join(', ')}, not ${String(role)}`);
  if (options.jobs !== undefined && options.jobs !== (role !== 'api')) throw new Error(`jobs: ${options.jobs} contradicts role: '${role}'`);
  return role;
}

export interface SiteAuditServer {
  app: ServedApp['app'];
  /** What this process does: serve the API, run the jobs, or both. */
  role: ServerRole;
  admin: Admin;
  knex: Knex;
  jobs: { idle(): Promise<void> };
  /** The internal event bus: publishing an event fans it out to webhook deliveries. */
  events: EventBus;
  /** This server's Prometheus registry when metrics are on (an application may add its own series). */
  metrics: Registry | null;
  /** Also opens the metrics port when `metrics: { port }` was given. */
  listen(port?: number, host?: string): Promise<{ url: string; port: number; metricsUrl?: string }>;
  /**
   * Graceful: refuses new requests (503), answers those in flight within `shutdownGraceMs`,
   * frees the idempotency keys of those that never completed, returns running jobs to the queue
   * at a checkpoint, then closes the pool.
   */
  close(): Promise<void>;
}

export async function createSiteAuditServer(options: SiteAuditServerOptions = {}): Promise<SiteAuditServer> {
  const publicUrl = options.publicUrl ?? process.env.SITEAUDIT_PUBLIC_URL;
  // Without a configured public URL, links are based on the address `listen()` binds (set there).
  let listening: string | null = null;
  const links = new PublicLinks(publicUrl ? parsePublicUrl(publicUrl) : null, () => listening);
  const envDocsUrl = options.docsUrl ?? process.env.SITEAUDIT_DOCS_URL;
  // Each server its own: two embedded in one process may point at different documentation.
  const docsUrl = envDocsUrl ? parsePublicUrl(envDocsUrl) : DEFAULT_DOCS_URL;
  const typeBase = problemTypeBase(docsUrl);
  // Options refused before the database is opened: a refusal leaves nothing open behind it.
  const role = serverRole(options);
  if (options.crawlThreads !== undefined && !(Number.isInteger(options.crawlThreads) && options.crawlThreads >= 0)) {
    throw new Error(`crawlThreads must be a whole number >= 0, not ${String(options.crawlThreads)}`);
  }
  const webhooks = webhooksOptions(options.webhooks);
  const db = openDatabase(options.database ?? 'sqlite:./siteaudit.db');
  await migrate(db);
  const secret = await serverSecret(db.knex, options.secretKey ?? process.env.SITEAUDIT_SECRET_KEY);
  const plans = resolvePlans(options.plans);
  const logger = resolveLogger(options.logger);
  if (!(options.secretKey ?? process.env.SITEAUDIT_SECRET_KEY)) {
    // The key then sits beside what it encrypts: a copy of the database decrypts crawl credentials.
    logger.warn('no secret key (SITEAUDIT_SECRET_KEY): webhook secrets and crawl credentials are encrypted with a key kept in the database itself; set one in production (docs/deployment.md)');
  }
  const metrics = options.metrics ? createMetrics(db.knex) : null;
  const metricsPort = typeof options.metrics === 'object' ? options.metrics : null;

  const clock = options.clock ?? (() => new Date());
  const runJobs = role !== 'api';
  const services: Services = Object.freeze({
    knex: db.knex,
    reads: db.reads,
    dialect: db.dialect,
    clock,
    plans: () => plans,
    network: { allowPrivateAddresses: options.network?.allowPrivateAddresses ?? false },
    links,
    secrets: createSecretBox({ keys: [{ id: 'primary', secret }] }),
    jobs: createJobRunner({ knex: db.knex, dialect: db.dialect, clock, injectedClock: options.clock !== undefined, logger: logger.child({ module: 'jobs' }), onFailed: metrics ? (kind) => metrics.jobFailed(kind) : undefined }),
    events: new EventBus(clock),
    logger,
    metrics,
  });
  metrics?.watchJobs(() => services.jobs.counts());

  const httpLog = logger.child({ module: 'http' });
  const authenticator = new Authenticator(db.knex, services.plans, { failuresPerMinute: options.authFailuresPerMinute, logger: httpLog, listen: db.dialect === 'postgres', reads: db.reads });
  await authenticator.start();
  const rateLimiter = db.dialect === 'postgres' ? createPostgresRateLimiter(db.knex) : createMemoryRateLimiter();

  // Every module, in one list (docs/architecture.md, "Modules"): each declares its handlers, jobs,
  // quotas and event subscribers, registered below and nowhere else; a module's needs are handed
  // to it here. Started in this order when this process runs jobs, closed in the reverse order.
  const quotas = new QuotaReader();
  const crawls = crawlsModule(services, { pagespeed: options.providers?.pagespeed ?? null, threads: options.crawlThreads, analysisThreads: options.crawlAnalysisThreads });
  // The uploads' folder is the store's own, the same after a restart (none for an in-memory database).
  const inMemory = db.dialect === 'sqlite' && (db.knex.client.config.connection as { filename?: string } | undefined)?.filename === ':memory:';
  const searchConsole = searchConsoleModule(services, options.providers ?? {});
  const { synchronises: searchConsoleSynchronises } = searchConsole.provides;
  const exports = exportsModule(services, {
    ...options.exports,
    searchConsoleSynchronises,
    directory: options.exports?.directory ?? defaultExportDirectory(db.dialect === 'sqlite' && /memory/.test(String(options.database ?? ''))),
  });
  const logs = logsModule(services, { exports: exports.provides.eraser }, { ...options.logs, defaultDirectory: inMemory ? undefined : defaultLogDirectory(await storeId(db.knex)) });
  const modules = [
    accountModule(services, { rateLimiter, quotas }),
    searchConsole,
    crawls,
    exports,
    logs,
    projectsModule(services, { stopper: crawls.provides.stopper, logs: logs.provides.eraser, exports: exports.provides.eraser }),
    campaignsModule(services, { stopper: crawls.provides.stopper, exports: exports.provides.eraser }),
    scorecardModule(services, { searchConsoleSynchronises }),
    positionsModule(services, options.providers ?? {}),
    webhooksModule(services, webhooks),
  ] as const satisfies readonly ServerModule<object>[];
  checkModules(modules);
  for (const module of modules as readonly ServerModule<object>[]) {
    for (const { kind, handler } of module.jobs) services.jobs.register(kind, handler);
    for (const quota of module.quotas) quotas.register(quota);
    for (const subscriber of module.events) services.events.subscribe(subscriber);
  }
  // A module missing for an operation is a compile error here.
  const handlers: Handlers = handlersOf(modules);

  const drain = new RequestDrain(typeBase);
  const idempotency = new IdempotencyStore(db.knex, httpLog);
  const health = createHealthProbe({ knex: db.knex, jobs: runJobs ? services.jobs : null, closing: () => closing !== null });
  const servedMetrics = metrics && !metricsPort ? metrics.registry : null;
  const served: ServedApp =
    role === 'worker'
      ? workerApp(health, servedMetrics, typeBase)
      : createApp(handlers, {
          authenticator,
          rateLimiter,
          idempotency,
          cursors: new CursorCodec(createHmac('sha256', secret).update('cursor-signing').digest()),
          plans: services.plans,
          clock: services.clock,
          problemTypeBase: typeBase,
          validateResponses: options.validateResponses ?? process.env.NODE_ENV === 'test',
          receiveUpload: logs.provides.receiveUpload,
          onError: (error, req, res, warning) => {
            const fields = { err: error, req_id: res.getHeader('X-Request-Id'), method: req.method, path: requestPath(req) };
            if (warning) httpLog.warn(fields, warning);
            else httpLog.error(fields, 'request failed');
          },
        }, { drain, observe: requestObserver(httpLog, metrics), metrics: servedMetrics, health,
          docs: { publicUrl: () => links.absolute('') || null, docsUrl },
          cors: options.cors ?? true,
        });

  if (runJobs) {
    for (const module of modules as readonly ServerModule<object>[]) await module.start?.();
    await services.jobs.start();
  }
  const graceMs = options.shutdownGraceMs ?? 10_000;
  const delayMs = options.shutdownDelayMs ?? 0;
  if (!(delayMs >= 0) || !(graceMs >= 0)) throw new Error('shutdownDelayMs and shutdownGraceMs must be positive numbers of milliseconds');
  let closing: Promise<void> | null = null;
  let metricsHttp: HttpServer | null = null;
  const listenMetrics = (registry: Registry, port: number, host: string) =>
    new Promise<string>((resolve, reject) => {
      const server = createServer((req, res) => {
        if (answerMetrics(registry, req, res, (error) => res.writeHead(500).end(String(error)))) return;
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
      });
      metricsHttp = server;
      server.once('error', reject);
      server.listen(port, host, () => {
        const address = server.address() as AddressInfo;
        resolve(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}/metrics`);
      });
    });

  let connections: ServerConnections | null = null;
  return {
    app: served.app,
    admin: createAdmin(services, {
      onAuthChange: () => authenticator.forgetTokens(),
      teamDeletion: async () => ({ stopper: crawls.provides.stopper, logs: logs.provides.eraser, exports: exports.provides.eraser }),
    }),
    knex: db.knex,
    role,
    jobs: { idle: () => (runJobs ? services.jobs.idle() : Promise.resolve()) },
    events: services.events,
    metrics: metrics?.registry ?? null,
    async listen(port = 0, host = '127.0.0.1') {
      const metricsUrl = metrics && metricsPort ? await listenMetrics(metrics.registry, metricsPort.port, metricsPort.host ?? host) : undefined;
      return new Promise((resolve, reject) => {
        // Every request is counted on its connection first: a stop closes each by what it does.
        const tracked = new ServerConnections(
          createServer((req, res) => {
            tracked.track(req, res);
            served.listener(req, res);
          }),
        );
        const http = tracked.server;
        // Idle connections are kept longer than balancers keep theirs (Node's 5 s default is below
        // an ALB's or nginx's 60 s): else a balancer, or a client whose loop lagged, sends a request
        // on a connection the server is closing and gets a reset (docs/deployment.md, "Keep-alive").
        http.keepAliveTimeout = KEEP_ALIVE_MS;
        http.headersTimeout = KEEP_ALIVE_MS + 1_000;
        connections = drain.connections = tracked;
        http.on('clientError', (error: Error, socket) => answerClientError(error, socket, typeBase));
        http.once('error', reject);
        http.listen(port, host, () => {
          const address = http.address() as AddressInfo;
          const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
          // A worker's address serves health checks only: never the base of the API's links.
          if (role !== 'worker') listening = listenBase(url, host);
          resolve({ url, port: address.port, metricsUrl });
        });
      });
    },
    close() {
      closing ??= (async () => {
        // The stop sequence (docs/reliability.md): /readyz answers 503 from now (`closing` is
        // set) and answers say `Connection: close`; requests are still served for `delayMs`,
        // while the balancer notices; then new requests are refused (503), the listener closes
        // once the connections already made are taken, and requests in flight have `graceMs`.
        const stopping = Date.now();
        logger.info({ delay_ms: delayMs, grace_ms: graceMs }, 'server stopping');
        drain.leave();
        connections?.leave();
        // Jobs wind down meanwhile; a job past the grace period is taken over elsewhere once its
        // lease expires, and its writes are fenced.
        const grace = new Promise<void>((resolve) => setTimeout(resolve, delayMs + graceMs + 5_000).unref());
        const jobsStopped = Promise.race([services.jobs.stop(), grace]);
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        await Promise.all([drain.drain(graceMs), connections?.stop(graceMs), jobsStopped]);
        metricsHttp?.closeAllConnections();
        await new Promise((resolve) => (metricsHttp ? metricsHttp.close(resolve) : resolve(undefined)));
        await idempotency.releaseInFlight();
        for (const module of [...(modules as readonly ServerModule<object>[])].reverse()) await module.close?.();
        await authenticator.close();
        await closeDatabase(db);
        logger.info({ ms: Date.now() - stopping }, 'server stopped');
      })();
      return closing;
    },
  };
}
