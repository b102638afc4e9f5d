/**
 * Prometheus metrics (docs/operations.md, "Metrics"): a registry of this server's own, never
 * prom-client's global one, so several servers in one process (tests, an application running
 * two) keep separate series. Gauges of the job queue and the database pool are read at scrape
 * time; counters move as things happen.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Knex } from 'knex';
import type { JobCount } from '../jobs/job-runner.js';

export interface Metrics {
  registry: Registry;
  /** One answered request: `operation` is the contract's operation id, or `unrouted`. */
  request(operation: string, status: number, seconds: number): void;
  /** A request received (+1) or answered, refused or abandoned (-1): the in-flight gauge. */
  inFlight(delta: 1 | -1): void;
  pagesFetched(count: number): void;
  delivery(outcome: 'succeeded' | 'retrying' | 'failed'): void;
  jobFailed(kind: string): void;
  /** Where the job gauge reads its counts: the server's job runner (never a job table). */
  watchJobs(counts: () => Promise<JobCount[]>): void;
}

/** Seconds: an API read takes milliseconds, an export request or a slow store up to seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

export function createMetrics(knex: Knex): Metrics {
  const registry = new Registry();
  let jobCounts: () => Promise<JobCount[]> = async () => [];
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({ name: 'siteaudit_http_requests_total', help: 'Answered API requests by operation and status', labelNames: ['operation', 'status'], registers });
  const latency = new Histogram({
    name: 'siteaudit_http_request_duration_seconds',
    help: 'Time to answer an API request, by operation',
    labelNames: ['operation'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  // What a stop still waits for (docs/reliability.md, "Stop sequence"), and what a stuck store piles up.
  const inFlight = new Gauge({ name: 'siteaudit_http_requests_in_flight', help: 'API requests received and not yet answered', registers });
  const refusals = new Counter({ name: 'siteaudit_rate_limit_refusals_total', help: 'Requests refused with 429 (rate limit, or failed authentications), by operation', labelNames: ['operation'], registers });
  const pages = new Counter({ name: 'siteaudit_crawl_pages_fetched_total', help: 'Pages fetched and stored by crawls in this process', registers });
  const deliveries = new Counter({ name: 'siteaudit_webhook_deliveries_total', help: 'Webhook delivery attempts by outcome (succeeded, retrying, failed)', labelNames: ['outcome'], registers });
  const failures = new Counter({ name: 'siteaudit_jobs_failed_total', help: 'Jobs that failed for good in this process, by kind', labelNames: ['kind'], registers });

  new Gauge({
    name: 'siteaudit_jobs',
    help: 'Jobs in the store by kind and state (queued, running, failed), all processes',
    labelNames: ['kind', 'state'],
    registers,
    async collect() {
      const rows = await jobCounts();
      this.reset();
      for (const row of rows) this.set({ kind: row.kind, state: row.state }, row.count);
    },
  });

  new Gauge({
    name: 'siteaudit_db_pool_connections',
    help: "This process's database pool: connections used, free, and acquisitions waiting (pending)",
    labelNames: ['state'],
    registers,
    collect() {
      const pool = (knex.client as { pool?: TarnPool }).pool;
      if (!pool) return;
      this.set({ state: 'used' }, pool.numUsed());
      this.set({ state: 'free' }, pool.numFree());
      this.set({ state: 'pending' }, pool.numPendingAcquires());
    },
  });

  return {
    registry,
    request(operation, status, seconds) {
      requests.inc({ operation, status });
      latency.observe({ operation }, seconds);
      if (status === 429) refusals.inc({ operation });
    },
    inFlight: (delta) => inFlight.inc(delta),
    pagesFetched: (count) => pages.inc(count),
    delivery: (outcome) => deliveries.inc({ outcome }),
    jobFailed: (kind) => failures.inc({ kind }),
    watchJobs(counts) {
      jobCounts = counts;
    },
  };
}
