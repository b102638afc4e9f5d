/**
 * Stopping crawls. The API has no stop operation, but deleting a campaign (or its project, or an
 * operator its team) stops its running crawl first. A crawl running in this process is aborted
 * and awaited; a crawl only queued is marked stopped at once; a crawl running in another process
 * sees `stop_requested` at its next progress report.
 */
import type { Knex } from 'knex';
import type { Services } from '../../services.js';
import { finishStopped } from './finish.js';

const STOP_WAIT_MS = 30_000;

/** Whose crawls a deletion stops. */
export type StopWhere = { campaign_id: string } | { project_id: string } | { team_id: string };

/**
 * What a process that runs no crawl (the CLI's admin) can do: ask, then wait (as long as a local
 * stop waits) while one is running. The process running it sees `stop_requested` at its next
 * progress report (every second) and settles it stopped; a queued one never starts, its row gone
 * with the deletion.
 */
export async function requestStop(knex: Knex, where: StopWhere): Promise<void> {
  await knex('crawls').where({ ...where, active: true }).update({ stop_requested: true });
  const deadline = Date.now() + STOP_WAIT_MS;
  while (Date.now() < deadline && (await knex('crawls').where({ ...where, active: true, status: 'running' }).first('id'))) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A deletion's transaction found a crawl launched after its stop. */
class LaunchedMeanwhile extends Error {}

/** The check a deletion makes in its transaction, once it holds the row whose crawls it takes. */
export type AssertStopped = (trx: Knex.Transaction) => Promise<void>;

/**
 * Stops the crawls under `where`, then runs `remove`, the deletion that takes them. A crawl
 * launched between the two (after the stop, before the deletion's transaction held the campaign,
 * project or team row, which a launch holds, or references, until it commits) would have gone
 * with its rows while queued or fetching, never stopped, its subscribers never told: the deletion
 * calls `assertStopped` in its transaction once it holds that row, and when one is there the
 * transaction is undone, that crawl stopped, and the deletion run again.
 */
export async function stopThen<T>(stop: (where: StopWhere) => Promise<void>, where: StopWhere, remove: (assertStopped: AssertStopped) => Promise<T>): Promise<T> {
  const assertStopped: AssertStopped = async (trx) => {
    if (await trx('crawls').where({ ...where, active: true, stop_requested: false }).first('id')) throw new LaunchedMeanwhile();
  };
  for (;;) {
    await stop(where);
    try {
      return await remove(assertStopped);
    } catch (error) {
      if (!(error instanceof LaunchedMeanwhile)) throw error;
    }
  }
}

export class RunningCrawls {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();

  constructor(private readonly services: Services) {}

  /** Registers a crawl run of this process; returns the signal that stops it. */
  track(crawlId: string, done: Promise<void>, controller: AbortController): void {
    this.running.set(crawlId, { controller, done });
    // `done` never rejects (the crawl job settles it either way): the catch only keeps lint quiet.
    void done.finally(() => this.running.delete(crawlId)).catch(() => undefined);
  }

  async stop(crawlId: string): Promise<void> {
    const { knex } = this.services;
    await knex('crawls').where({ id: crawlId, active: true }).update({ stop_requested: true });
    const local = this.running.get(crawlId);
    if (local) {
      local.controller.abort();
      // How the run ended is the crawl job's to log; here only that it ended matters.
      await Promise.race([local.done.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
      return;
    }
    const row = await knex('crawls').where({ id: crawlId }).first();
    if (row?.status === 'queued') await finishStopped({ services: this.services, row });
  }

  /** Stops the crawls under `where`, then runs the deletion that takes them (stopThen). */
  stopThen<T>(where: StopWhere, remove: (assertStopped: AssertStopped) => Promise<T>): Promise<T> {
    return stopThen((w) => this.stopWhere(w), where, remove);
  }

  async stopWhere(where: StopWhere): Promise<void> {
    const ids: string[] = await this.services.knex('crawls').where({ ...where, active: true }).pluck('id');
    await Promise.all(ids.map((id) => this.stop(id)));
  }
}
