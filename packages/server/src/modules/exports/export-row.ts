import type { Export } from '@siteaudit/schema';
import type { PublicLinks } from '../../http/public-url.js';

export interface ExportRow {
  id: string;
  team_id: string;
  crawl_id: string;
  format: Export['format'];
  language: 'fr' | 'en';
  status: Export['status'];
  size_bytes: number | string | null;
  blob_key: string | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  expires_at: string | null;
  /** Cover branding as requested (JSON of `ExportBranding`), or null (migration 024). */
  branding?: string | null;
}

/** The same `download_url` in answers and in the `export.ready` payload: both read `links`. */
export function toExport(row: ExportRow, links: PublicLinks): Export {
  const ready = row.status === 'ready';
  return {
    id: row.id,
    crawl_id: row.crawl_id,
    format: row.format,
    status: row.status,
    size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
    download_url: ready ? links.absolute(`/v1/exports/${row.id}/download`) : null,
    error: row.error,
    created_at: row.created_at,
    finished_at: row.finished_at,
    expires_at: row.expires_at,
  };
}
