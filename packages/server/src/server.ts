/**
 * createSiteAuditServer: the embeddable reference server (../shared/architecture.md, "The
 * operator interface"). It opens the store, runs the migrations and assembles the HTTP app from
 * the contract.
 */
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type Server as HttpServer } from 'node:http';
import type { Knex } from 'knex';
import { createAdmin, type Admin } from './admin.js';
import { createSecretBox } from './crypto/secret-box.js';
import { serverSecret } from './crypto/server-secret.js';
import { EventBus } from './events/bus.js';
import { createApp, standaloneApp } from './http/app.js';
import { RequestDrain } from './http/drain.js';
import { createJobRunner } from './jobs/runner.js';
import { Authenticator } from './http/auth.js';
import type { Handlers } from './http/binder.js';
import { CursorCodec } from './http/cursor.js';
import { IdempotencyStore } from './http/idempotency.js';
import { parsePublicUrl, PublicLinks } from './http/public-url.js';
import { createMemoryRateLimiter, createPostgresRateLimiter } from './http/rate-limit.js';
import { accountHandlers } from './modules/account/handlers.js';
import { QuotaReader } from './modules/account/quotas.js';
import { campaignHandlers } from './modules/campaigns/handlers.js';
import { crawlsModule } from './modules/crawls/index.js';
import { configureCrawlRuntime } from './modules/crawls/run.js';
import { defaultExportDirectory, exportsModule, type ExportsOptions } from './modules/exports/index.js';
import { scorecardHandlers } from './modules/scorecard/handlers.js';
import { positionsModule } from './modules/positions/index.js';
import { searchConsoleModule } from './modules/search-console/index.js';
import type { Providers } from './providers/index.js';
import { projectHandlers } from './modules/projects/handlers.js';
import { pendingHandlers } from './modules/pending.js';
import { webhooksModule } from './modules/webhooks/index.js';
import { resolvePlans, type PlanOverrides } from '@siteaudit/schema';
import type { Services } from './services.js';
import { migrate, openDatabase, type Database, type DatabaseOption } from './store/database.js';

export interface SiteAuditServerOptions {
  /** `sqlite::memory:`, a file path or `sqlite:./file.db`, a `postgres://` URL, or a knex instance. Default `sqlite:./siteaudit.db`. */
  database?: DatabaseOption;
  /** Deep-merged over the default plan catalogue. */
  plans?: PlanOverrides;
  /** Every time rule reads this clock. */
  clock?: () => Date;
  network?: { allowPrivateAddresses?: boolean };
  /**
   * The URL clients reach the API at, e.g. `https://api.example.com/siteaudit`: the base of every
   * absolute link in answers and webhooks. Default: SITEAUDIT_PUBLIC_URL, else the address
   * `listen()` binds; never the request's Host header (docs/decisions/public-url.md).
   */
  publicUrl?: string;
  /**
   * Failed authentications a client address may make per minute before its failing requests get
   * 429 instead of 401 (default 20; null: no limit). Valid tokens are never refused for it.
   */
  authFailuresPerMinute?: number | null;
  /** PageSpeed, SERP, keyword-data and Search Console adapters (src/providers); none configured is reported honestly. */
  providers?: Providers;
  /** Where export files are kept and for how long (default 7 days). */
  exports?: ExportsOptions;
  /** Encrypts secrets at rest and signs cursors. Default: SITEAUDIT_SECRET_KEY, else a key kept in the database. */
  secretKey?: string;
  /** Check every response against the contract. Default: on under NODE_ENV=test. */
  validateResponses?: boolean;
  logger?: { error(message: string, error?: unknown): void };
  /**
   * Run the durable jobs (crawls, deliveries, exports, the scheduler) in this process. Default
   * true; false makes an API-only or admin node that queues jobs for others to run.
   */
  jobs?: boolean;
  /** At close (SIGTERM), how long requests in flight may take to be answered. Default 10 s. */
  shutdownGraceMs?: number;
}

export interface SiteAuditServer {
  app: ReturnType<typeof createApp>;
  admin: Admin;
  knex: Knex;
  jobs: { idle(): Promise<void> };
  /** The internal event bus: publishing an event fans it out to webhook deliveries. */
  events: EventBus;
  listen(port?: number, host?: string): Promise<{ url: string; port: number }>;
  /**
   * Graceful: refuses new requests (503), answers those in flight within `shutdownGraceMs`,
   * frees the idempotency keys of those that never completed, returns running jobs to the queue
   * at a checkpoint, then closes the pool.
   */
  close(): Promise<void>;
}

export async function createSiteAuditServer(options: SiteAuditServerOptions = {}): Promise<SiteAuditServer> {
  const publicUrl = options.publicUrl ?? process.env.SITEAUDIT_PUBLIC_URL;
  const links = new PublicLinks(publicUrl ? parsePublicUrl(publicUrl) : null);
  const db = openDatabase(options.database ?? 'sqlite:./siteaudit.db');
  await migrate(db);
  const secret = await serverSecret(db.knex, options.secretKey ?? process.env.SITEAUDIT_SECRET_KEY);
  const plans = resolvePlans(options.plans);
  const logger = options.logger ?? { error: (message: string, error?: unknown) => console.error(message, error) };

  const clock = options.clock ?? (() => new Date());
  const services: Services = {
    knex: db.knex,
    dialect: db.dialect,
    clock,
    plans: () => plans,
    network: { allowPrivateAddresses: options.network?.allowPrivateAddresses ?? false },
    links,
    secrets: createSecretBox({ keys: [{ id: 'primary', secret }] }),
    jobs: createJobRunner({ knex: db.knex, dialect: db.dialect, clock, onError: (error) => logger.error('job failed', error) }),
    events: new EventBus(clock),
    quotas: new QuotaReader(db.knex),
    crawlControl: { stopWhere: async () => undefined }, // replaced by the crawls module below
  };
  const crawls = crawlsModule(services);
  configureCrawlRuntime(services, { pagespeed: options.providers?.pagespeed ?? null });
  services.crawlControl = crawls.control;
  const exports = exportsModule(services, {
    ...options.exports,
    directory: options.exports?.directory ?? defaultExportDirectory(db.dialect === 'sqlite' && /memory/.test(String(options.database ?? ''))),
  });


  const authenticator = new Authenticator(db.knex, services.plans, { failuresPerMinute: options.authFailuresPerMinute });
  const rateLimiter = db.dialect === 'postgres' ? createPostgresRateLimiter(db.knex) : createMemoryRateLimiter();
  const webhooks = webhooksModule(services);
  const handlers: Handlers = {
    ...pendingHandlers(),
    ...accountHandlers(services, { authenticator, rateLimiter }),
    ...projectHandlers(services),
    ...campaignHandlers(services),
    ...crawls.handlers,
    ...exports.handlers,
    ...scorecardHandlers(services),
    ...positionsModule(services, options.providers ?? {}),
    ...searchConsoleModule(services, options.providers ?? {}),
    ...webhooks.handlers,
  };

  const drain = new RequestDrain();
  const idempotency = new IdempotencyStore(db.knex);
  const app = createApp(handlers, {
    authenticator,
    rateLimiter,
    idempotency,
    cursors: new CursorCodec(createHmac('sha256', secret).update('cursor-signing').digest()),
    plans: services.plans,
    clock: services.clock,
    validateResponses: options.validateResponses ?? process.env.NODE_ENV === 'test',
    onError: (error, req) => logger.error(`${req.method} ${req.originalUrl} failed`, error),
  }, drain);

  const runJobs = options.jobs ?? true;
  if (runJobs) {
    await webhooks.start();
    await crawls.start();
    await exports.start();
    services.jobs.start();
  }
  const graceMs = options.shutdownGraceMs ?? 10_000;
  let closing: Promise<void> | null = null;

  let http: HttpServer | null = null;
  return {
    app,
    admin: createAdmin(services),
    knex: db.knex,
    jobs: { idle: () => (runJobs ? services.jobs.idle() : Promise.resolve()) },
    events: services.events,
    listen(port = 0, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        http = createServer(standaloneApp(app));
        http.once('error', reject);
        http.listen(port, host, () => {
          const address = http!.address() as AddressInfo;
          const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
          links.listening(url, host);
          resolve({ url, port: address.port });
        });
      });
    },
    close() {
      closing ??= (async () => {
        const server = http;
        http = null;
        const stopped = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
        server?.closeIdleConnections();
        // Requests and jobs wind down together; a job past the grace period is taken over
        // elsewhere once its lease expires, and its writes are fenced.
        const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs + 5_000).unref());
        await Promise.all([drain.drain(graceMs), Promise.race([services.jobs.stop(), grace])]);
        server?.closeAllConnections();
        await stopped;
        await idempotency.releaseInFlight();
        await webhooks.close();
        await authenticator.close();
        if (db.owned) await db.knex.destroy();
      })();
      return closing;
    },
  };
}
