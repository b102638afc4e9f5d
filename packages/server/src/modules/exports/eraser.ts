/**
 * What a project's or a campaign's deletion does to its exports' files. The rows go with the
 * crawls (a cascade), and the sweep finds files only through rows, so the files are removed here:
 * their names are read before the deletion and removed after it, whatever the export's status
 * (a file is `<id>.<format>`; a row written before that named its own key). A generation still
 * running then finds its row gone and removes what it wrote (generate-job.ts).
 */
import type { Knex } from 'knex';
import { crawlIdsWhere } from '../crawls/reads.js';
import type { BlobStore } from './blob-store.js';

/** Ids bound per query: under SQLite's 999-variable cap. */
const IDS_PER_QUERY = 500;

export interface ExportEraser {
  /** Reads the files of the exports of what is about to be deleted; the function returned removes them once it is. */
  beforeDelete(where: { project_id: string } | { campaign_id: string }): Promise<() => Promise<void>>;
  /**
   * A log import of the project was deleted: removes the exports that may show its paths (their
   * log section sums the project's completed imports), rows and files: those finished since it
   * completed (`since`) and those being generated. Queued ones are kept: they will be made
   * without it. Returns how many went.
   */
  afterLogImportDelete(projectId: string, since: string): Promise<number>;
}

export function exportEraser(knex: Knex, store: BlobStore): ExportEraser {
  return {
    async beforeDelete(where) {
      const crawlIds = await crawlIdsWhere(knex, where);
      const keys = new Set<string>();
      for (let i = 0; i < crawlIds.length; i += IDS_PER_QUERY) {
        const rows = (await knex('exports')
          .whereIn('crawl_id', crawlIds.slice(i, i + IDS_PER_QUERY))
          .select('id', 'format', 'blob_key')) as { id: string; format: string; blob_key: string | null }[];
        for (const row of rows) {
          keys.add(`${row.id}.${row.format}`);
          if (row.blob_key) keys.add(row.blob_key);
        }
      }
      return async () => {
        for (const key of keys) await store.delete(key);
      };
    },

    async afterLogImportDelete(projectId, since) {
      const crawlIds = await crawlIdsWhere(knex, { project_id: projectId });
      let removed = 0;
      for (let i = 0; i < crawlIds.length; i += IDS_PER_QUERY) {
        const rows = (await knex('exports')
          .whereIn('crawl_id', crawlIds.slice(i, i + IDS_PER_QUERY))
          .andWhere((q) => q.where('finished_at', '>=', since).orWhere('status', 'generating'))
          .select('id', 'format', 'blob_key')) as { id: string; format: string; blob_key: string | null }[];
        if (rows.length === 0) continue;
        // The row first: a download then answers 404, and a generation under way finds its row
        // gone and removes what it wrote (generate-job.ts).
        await knex('exports').whereIn('id', rows.map((row) => row.id)).delete();
        for (const row of rows) {
          await store.delete(`${row.id}.${row.format}`);
          if (row.blob_key) await store.delete(row.blob_key);
        }
        removed += rows.length;
      }
      return removed;
    },
  };
}
