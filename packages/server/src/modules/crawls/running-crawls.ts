/**
 * Stopping crawls. The API has no stop operation, but deleting a campaign (or its project)
 * stops its running crawl first. A crawl running in this process is aborted and awaited; a
 * crawl only queued is marked stopped at once; a crawl running in another process sees
 * `stop_requested` at its next progress report.
 */
import type { Services } from '../../services.js';
import { finishStopped } from './finish.js';

const STOP_WAIT_MS = 30_000;

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

  async stopWhere(where: { campaign_id?: string; project_id?: string }): Promise<void> {
    const ids: string[] = await this.services.knex('crawls').where({ ...where, active: true }).pluck('id');
    await Promise.all(ids.map((id) => this.stop(id)));
  }
}
