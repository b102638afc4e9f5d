/** An export past its expiry: its file removed, its row kept `expired` so reads explain the 410. */
import type { Services } from '../../services.js';
import type { BlobStore } from './blob-store.js';
import type { ExportRow } from './export-row.js';

export interface ExportExpiry {
  /** Removes the file of an export past its expiry; the row stays, `expired`. */
  expire(row: ExportRow): Promise<ExportRow>;
  /** The row as it is now: a `ready` export past its expiry is expired first. */
  current(row: ExportRow): Promise<ExportRow>;
}

export function exportExpiry(services: Pick<Services, 'knex' | 'clock'>, store: BlobStore): ExportExpiry {
  const { knex } = services;
  async function expire(row: ExportRow): Promise<ExportRow> {
    if (row.blob_key) await store.delete(row.blob_key);
    await knex('exports').where({ id: row.id }).update({ status: 'expired', blob_key: null });
    return { ...row, status: 'expired', blob_key: null };
  }
  async function current(row: ExportRow): Promise<ExportRow> {
    return row.status === 'ready' && row.expires_at && row.expires_at <= services.clock().toISOString() ? expire(row) : row;
  }
  return { expire, current };
}
