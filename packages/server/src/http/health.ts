/**
 * Health endpoints for load balancers and orchestrators (docs/deployment.md, "Health checks"):
 * outside /v1, without a token, the rate limit or the request log, JSON.
 * - `GET /healthz`: the process answers (200), even while it shuts down: a liveness probe must
 *   not restart a process that is draining.
 * - `GET /readyz`: 200 when the database answers, every migration this build knows is applied,
 *   and the job engine runs when this process runs jobs; 503 otherwise, and from the moment
 *   shutdown begins, so a balancer stops sending before the listener closes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Knex } from 'knex';
import { migrationSource } from '../store/migrations/index.js';

export const HEALTH_PATHS = ['/healthz', '/readyz'] as const;

/** A probe waits this long for the database before calling it unreachable. */
const DATABASE_TIMEOUT_MS = 2_000;

type Check = 'ok' | 'unreachable' | 'pending' | 'stopped' | 'not_run' | 'shutting_down';

export interface Readiness {
  ready: boolean;
  checks: { database: Check; migrations: Check; jobs: Check; shutdown: Check };
}

export interface HealthProbe {
  readiness(): Promise<Readiness>;
}

export function createHealthProbe(deps: { knex: Knex; jobs: { ready(): boolean } | null; closing: () => boolean }): HealthProbe {
  let known: Promise<string[]> | null = null;
  const migrations = () => (known ??= migrationSource.getMigrations([]).then((names) => names.map((n) => migrationSource.getMigrationName(n))));

  async function database(): Promise<{ database: Check; migrations: Check }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('database probe timed out')), DATABASE_TIMEOUT_MS);
      timer.unref();
    });
    try {
      const applied = await Promise.race([deps.knex('siteaudit_migrations').pluck('name') as Promise<string[]>, timeout]);
      const done = new Set(applied);
      return { database: 'ok', migrations: (await migrations()).every((name) => done.has(name)) ? 'ok' : 'pending' };
    } catch {
      return { database: 'unreachable', migrations: 'pending' };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async readiness() {
      const shutdown: Check = deps.closing() ? 'shutting_down' : 'ok';
      const jobs: Check = deps.jobs === null ? 'not_run' : deps.jobs.ready() ? 'ok' : 'stopped';
      const store = await database();
      const checks = { ...store, jobs, shutdown };
      const ready = shutdown === 'ok' && store.database === 'ok' && store.migrations === 'ok' && jobs !== 'stopped';
      return { ready, checks };
    },
  };
}

function reply(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
}

/** Answers a health path and returns true, else returns false and leaves the request alone. */
export function answerHealth(probe: HealthProbe, req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '';
  // Cheap for the API requests every call walks past: a look at the second character first.
  if ((url[1] !== 'h' && url[1] !== 'r') || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  const path = url.split('?')[0];
  if (path === '/healthz') {
    reply(res, 200, { status: 'ok' });
    return true;
  }
  if (path !== '/readyz') return false;
  probe.readiness().then(
    ({ ready, checks }) => reply(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', checks }),
    () => reply(res, 503, { status: 'not_ready' }),
  );
  return true;
}
