/** What other modules read of the campaigns outside a request: notification settings, due schedules. */
import type { Knex } from 'knex';
import type { RegressionThreshold } from '@siteaudit/schema/rules';
import { bool, type Dialect } from '../../store/database.js';
import type { CampaignRow } from './campaign-row.js';

/** Whether the campaign notifies (`notify`) and past which regression; undefined once deleted. */
export async function campaignNotification(db: Knex, campaignId: string): Promise<{ notify: boolean; regressionThreshold: RegressionThreshold } | undefined> {
  const row = (await db('campaigns').where({ id: campaignId }).first('notify', 'regression_threshold')) as
    | { notify: boolean | number; regression_threshold: RegressionThreshold }
    | undefined;
  return row && { notify: bool(row.notify), regressionThreshold: row.regression_threshold };
}

/** The scheduled campaigns whose next run is due at `now` (not paused, not manual). */
export async function dueCampaigns(db: Knex, now: Date): Promise<CampaignRow[]> {
  return (await db('campaigns')
    .whereNotNull('next_run_at')
    .andWhere('next_run_at', '<=', now.toISOString())
    .andWhere('schedule_paused', false)
    .andWhereNot('schedule_frequency', 'manual')) as CampaignRow[];
}

/**
 * A campaign read inside a transaction that depends on it staying as read until commit (a crawl's
 * launch freezes its settings): on PostgreSQL `for share`, so an update or a deletion waits for
 * the commit, and one that committed first is seen (or its absence); SQLite's writing transaction
 * already holds the file (store/sqlite-writer.ts). Undefined once deleted.
 */
export async function campaignForShare(trx: Knex.Transaction, dialect: Dialect, where: { id: string; team_id: string }): Promise<CampaignRow | undefined> {
  const query = trx('campaigns').where(where);
  return (await (dialect === 'postgres' ? query.forShare() : query).first()) as CampaignRow | undefined;
}
