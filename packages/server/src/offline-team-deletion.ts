/**
 * A team's deletion from a process that runs no crawl, parse or export (the CLI's admin, beside
 * the serving processes on the same database): it asks the team's crawls to stop (the process
 * running one sees it at its next progress report, as when an API-only node deletes a campaign),
 * removes the team's log uploads from the store's folder, and its export files from the export
 * folder: the folders a server started in the same directory with the same environment uses
 * (SITEAUDIT_LOG_DIR, SITEAUDIT_EXPORT_DIR, else their defaults). Imported only by that command.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { requestStop, stopThen } from './modules/crawls/running-crawls.js';
import { createDirectoryBlobStore } from './modules/exports/blob-store.js';
import { exportEraser } from './modules/exports/eraser.js';
import { defaultExportDirectory } from './modules/exports/directory.js';
import { defaultLogDirectory } from './modules/logs/directory.js';
import { importFileName } from './modules/logs/retention.js';
import { isPostgres } from './store/database.js';
import { storeId } from './store/store-id.js';
import type { TeamDeletionNeeds } from './team-deletion.js';

export async function offlineTeamDeletion(services: { knex: Knex; clock: () => Date }): Promise<TeamDeletionNeeds> {
  const { knex } = services;
  const logDirectory = process.env.SITEAUDIT_LOG_DIR || defaultLogDirectory(await storeId(knex));
  return {
    stopper: { stopThen: (where, remove) => stopThen((w) => requestStop(knex, w), where, remove) },
    logs: {
      async beforeProjectDelete(projectId) {
        const ids: string[] = await knex('log_imports').where({ project_id: projectId }).pluck('id');
        await Promise.all(ids.map((id) => rm(join(logDirectory, importFileName(id)), { force: true })));
      },
      async afterDelete() {
        // The deleted rows' frames out of SQLite's WAL; a reader of the server holding it leaves
        // them to its next checkpoint (the server's own deletions ask until none does).
        if (!isPostgres(knex)) await knex.raw('PRAGMA wal_checkpoint(TRUNCATE)');
      },
    },
    exports: exportEraser(services, createDirectoryBlobStore(defaultExportDirectory(false))),
  };
}
