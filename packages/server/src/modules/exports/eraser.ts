/**
 * What a deletion does to exports that hold the deleted data: a team's, a project's or a
 * campaign's (their rows go with the crawls, a cascade; their files are removed here) and a log import's (the
 * exports that may show its paths go, rows and files).
 *
 * What is left to remove is written to `export_erasures` in the deletion's own transaction, then
 * removed, then the record goes. A process killed in between leaves the record, and the next
 * start-up or sweep finishes it (`resume`): no file outlives its row for good, and no report of a
 * deleted import stays downloadable. A generation still running finds its row gone and removes
 * what it wrote (generate-job.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Services } from '../../services.js';
import { isPostgres } from '../../store/database.js';
import { transaction } from '../../store/retry.js';
import { crawlIdsWhere } from '../crawls/reads.js';
import type { BlobStore } from './blob-store.js';

/** Ids bound per query: under SQLite's 999-variable cap. */
const IDS_PER_QUERY = 500;

/** Deletes the data itself, in the transaction it is given. */
export type Deletion = (trx: Knex.Transaction) => Promise<unknown>;

export interface ExportEraser {
  /** Runs `remove` (a team's, a project's or a campaign's deletion) and removes its exports' files. */
  deleteWith(where: { team_id: string } | { project_id: string } | { campaign_id: string }, remove: Deletion): Promise<void>;
  /**
   * Runs `remove` (a log import's deletion) and, when the import had completed at `since`, removes
   * the project's exports that may show its paths (their log section sums the project's completed
   * imports), rows and files: those finished since, and those being generated. Queued ones are
   * kept: they will be made without it. Returns how many went.
   */
  logImportDeleteWith(projectId: string, since: string | null, remove: Deletion): Promise<number>;
  /** Finishes the erasures a process left when it died (at start-up, and in each sweep). Returns how many. */
  resume(): Promise<number>;
}

interface ErasureRow {
  id: string;
  blob_keys: string | null;
  project_id: string | null;
  since: string | null;
  created_at: string;
}

interface ExportFile {
  id: string;
  format: string;
  blob_key: string | null;
}

/** A file is `<id>.<format>`; a row written before that named its own key. */
const fileKeys = (row: ExportFile) => [`${row.id}.${row.format}`, ...(row.blob_key ? [row.blob_key] : [])];

/** Only the store and the clock: the CLI's admin, which builds no module, erases with it too. */
export function exportEraser(services: Pick<Services, 'knex' | 'clock'>, store: BlobStore): ExportEraser {
  const { knex } = services;

  async function exportsOf(db: Knex, crawlIds: string[], where: (q: Knex.QueryBuilder) => void = () => undefined): Promise<ExportFile[]> {
    const rows: ExportFile[] = [];
    for (let i = 0; i < crawlIds.length; i += IDS_PER_QUERY) {
      rows.push(...((await db('exports').whereIn('crawl_id', crawlIds.slice(i, i + IDS_PER_QUERY)).where(where).select('id', 'format', 'blob_key')) as ExportFile[]));
    }
    return rows;
  }

  /** Records `erasure` and runs `remove` in one transaction, then carries the erasure out. */
  async function withErasure(erasure: Omit<ErasureRow, 'id' | 'created_at'>, remove: Deletion): Promise<number> {
    const row: ErasureRow = { id: randomUUID(), created_at: services.clock().toISOString(), ...erasure };
    await transaction(knex, async (trx) => {
      await trx('export_erasures').insert(row);
      await remove(trx);
    });
    return carryOut(row);
  }

  async function carryOut(erasure: ErasureRow): Promise<number> {
    let removed = 0;
    let keys = erasure.blob_keys;
    if (erasure.project_id && erasure.since) {
      // The rows go, and their files are written into the record, in one transaction: a process
      // killed after it still knows which files to remove. A download then answers 404, and a
      // generation under way finds its row gone and removes what it wrote (generate-job.ts).
      const crawlIds = await crawlIdsWhere(knex, { project_id: erasure.project_id });
      keys = await transaction(knex, async (trx) => {
        // Another process resuming the same record may have resolved it first: its files stand
        // in the record then, and are not overwritten by this run's (empty) list.
        const query = trx('export_erasures').where({ id: erasure.id });
        const current = (await (isPostgres(trx) ? query.forUpdate() : query).first()) as ErasureRow | undefined;
        if (!current || !current.since) return current?.blob_keys ?? null;
        // Made after the deletion, an export cannot show the import: kept.
        const rows = await exportsOf(trx, crawlIds, (q) => q.where('created_at', '<=', erasure.created_at).andWhere((w) => w.where('finished_at', '>=', erasure.since!).orWhere('status', 'generating')));
        for (let i = 0; i < rows.length; i += IDS_PER_QUERY) await trx('exports').whereIn('id', rows.slice(i, i + IDS_PER_QUERY).map((row) => row.id)).delete();
        const files = JSON.stringify(rows.flatMap(fileKeys));
        await trx('export_erasures').where({ id: erasure.id }).update({ blob_keys: files, project_id: null, since: null });
        removed = rows.length;
        return files;
      });
    }
    if (keys) for (const key of JSON.parse(keys) as string[]) await store.delete(key);
    await knex('export_erasures').where({ id: erasure.id }).delete();
    return removed;
  }

  return {
    async deleteWith(where, remove) {
      const keys = (await exportsOf(knex, await crawlIdsWhere(knex, where))).flatMap(fileKeys);
      // An export requested meanwhile has no file yet; its generation finds its row gone.
      await withErasure({ blob_keys: keys.length > 0 ? JSON.stringify(keys) : null, project_id: null, since: null }, remove);
    },

    async logImportDeleteWith(projectId, since, remove) {
      if (since === null) {
        await transaction(knex, remove);
        return 0;
      }
      return withErasure({ blob_keys: null, project_id: projectId, since }, remove);
    },

    async resume() {
      const left = (await knex('export_erasures').orderBy('created_at').select()) as ErasureRow[];
      for (const erasure of left) await carryOut(erasure);
      return left.length;
    },
  };
}
