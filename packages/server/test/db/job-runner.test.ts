/**
 * The table job runner's leases (docs/reliability.md, "Crashes and shutdown"): two runners on one
 * database, each with its own lease clock, stand for two processes. A job is taken over only once
 * its lease has expired; the run that lost it can no longer write; singleton keys hold.
 */
import type { Knex } from 'knex';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineJob, LeaseLostError, type JobContext, type JobRunner } from '../../src/jobs/job-runner.js';
import { createTableJobRunner } from '../../src/jobs/runner.js';
import { migrate, openDatabase } from '../../src/store/database.js';
import { onPostgres, sharedDatabase } from '../../../../tests/support/harness.js';

const LEASE_MS = 60_000;
const WORK = defineJob<{ n?: number }>('work', { leaseMs: LEASE_MS });
const CHAIN = defineJob('chain');
const T0 = Date.parse('2026-05-04T10:00:00Z');

let knex: Knex;
let drop: () => Promise<void>;
const runners: JobRunner[] = [];

beforeEach(async () => {
  ({ knex, drop } = await sharedDatabase());
  await migrate(openDatabase(knex));
});

afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop();
  await drop();
});

function runner(leaseNow: { t: number }): JobRunner {
  const r = createTableJobRunner({ knex, dialect: onPostgres ? 'postgres' : 'sqlite', clock: () => new Date(T0), leaseClock: () => leaseNow.t });
  runners.push(r);
  return r;
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition never met');
}

/** Lets a runner poll several times (it polls every 200 ms). */
const severalPolls = () => new Promise((r) => setTimeout(r, 700));

describe('job leases', () => {
  it('takes a running job over only once its lease has expired, and fences the run that lost it', async () => {
    const clockA = { t: T0 };
    const clockB = { t: T0 };
    const a = runner(clockA);
    const b = runner(clockB);
    const stalled = gate();
    const runs: { who: string; ctx: JobContext }[] = [];
    let staleWrite: unknown = null;
    a.register(WORK, {
      async run(_payload, ctx) {
        runs.push({ who: 'a', ctx });
        await stalled.opened; // a stalled worker: its process froze past its lease
        staleWrite = await ctx.lease.write((trx) => trx('settings').insert({ key: 'written-by', value: 'a' })).catch((error: unknown) => error);
      },
    });
    b.register(WORK, {
      async run(_payload, ctx) {
        runs.push({ who: 'b', ctx });
        await ctx.lease.write((trx) => trx('settings').insert({ key: 'written-by', value: 'b' }));
      },
    });
    await a.enqueue(WORK, {});
    await a.start();
    await until(() => runs.length === 1);

    await b.start();
    await severalPolls();
    // B's clock has not passed the lease: the job stays with A.
    expect(runs.map((r) => r.who)).toEqual(['a']);
    expect(await knex('jobs').first('state', 'attempts')).toMatchObject({ state: 'running', attempts: 1 });

    clockB.t = T0 + 2 * LEASE_MS; // A stopped renewing: its lease is over from B's point of view
    await until(() => runs.length === 2);
    expect(runs[1]).toMatchObject({ who: 'b' });
    expect(runs[1].ctx.attempt).toBe(2);
    await b.idle();

    // A wakes up: its lease is lost, its signal aborted, its write refused.
    stalled.open();
    await until(() => staleWrite !== null);
    expect(staleWrite).toBeInstanceOf(LeaseLostError);
    expect(runs[0].ctx.signal.aborted).toBe(true);
    expect(await knex('settings').where({ key: 'written-by' }).pluck('value')).toEqual(['b']);
    // B finished the job: A's late end does not bring it back.
    await a.stop();
    expect(await a.counts()).toEqual([]);
  });

  it('returns a job stopped at shutdown to the queue with its lease released, for the next runner at once', async () => {
    const clock = { t: T0 };
    const first = runner(clock);
    const started = gate();
    first.register(WORK, {
      async run(_payload, ctx) {
        started.open();
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
        throw new Error('interrupted');
      },
    });
    await first.enqueue(WORK, { n: 1 });
    await first.start();
    await started.opened;
    await first.stop();
    expect(await knex('jobs').first('state', 'lease_owner', 'lease_until', 'attempts')).toEqual({ state: 'queued', lease_owner: null, lease_until: null, attempts: 0 });

    // Same lease clock: the job is free, not waiting for an expiry.
    const next = runner(clock);
    const ran: number[] = [];
    next.register(WORK, { run: async (payload) => void ran.push(payload.n!) });
    await next.start();
    await next.idle();
    expect(ran).toEqual([1]);
  });
});

describe('singleton keys', () => {
  it('keeps one queued-or-running job per key, whatever the race, and frees the key when it ends', async () => {
    const r = runner({ t: T0 });
    const release = gate();
    let runs = 0;
    r.register(CHAIN, {
      async run() {
        runs++;
        await release.opened;
      },
    });
    const ids = await Promise.all(Array.from({ length: 10 }, () => r.enqueue(CHAIN, {}, { singletonKey: 'chain' })));
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    await r.start();
    await until(() => runs === 1);
    // Running still holds the key.
    expect(await r.enqueue(CHAIN, {}, { singletonKey: 'chain' })).toBeNull();
    release.open();
    await r.idle();
    expect(runs).toBe(1);
    expect(await r.enqueue(CHAIN, {}, { singletonKey: 'chain' })).not.toBeNull();
    // Without a key, nothing is refused.
    expect(await r.enqueue(CHAIN, {})).not.toBeNull();
    await r.idle();
    expect(runs).toBe(3);
  });
});
