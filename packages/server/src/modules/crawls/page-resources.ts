/**
 * The resources a crawled page loads, for the by-URL read: the page's id list
 * (crawl_page_resources) joined to the crawl's resource rows, in the order the page names them.
 */
import type { Knex } from 'knex';
import type { PageResource, ResourceType } from '@siteaudit/schema';

interface ResourceRow {
  id: number;
  url: string;
  type: ResourceType;
  status_code: number | null;
  final_status_code: number | null;
  redirect_url: string | null;
  error_type: string | null;
  content_type: string | null;
  size_bytes: number | string | null;
}

/** Ids per query: under SQLite's variable cap. */
const ID_CHUNK = 500;

export async function pageResources(knex: Knex, crawlId: string, urlHash: string): Promise<PageResource[]> {
  const use = (await knex('crawl_page_resources').where({ crawl_id: crawlId, url_hash: urlHash }).first('resource_ids')) as { resource_ids: string } | undefined;
  if (!use) return [];
  const ids = use.resource_ids.split(',').map(Number);
  const byId = new Map<number, ResourceRow>();
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const rows = (await knex('crawl_resources').where({ crawl_id: crawlId }).whereIn('id', ids.slice(i, i + ID_CHUNK))) as ResourceRow[];
    for (const row of rows) byId.set(Number(row.id), row);
  }
  // A resource still unchecked when the crawl stopped has no row: it is left out.
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        url: r.url,
        type: r.type,
        status_code: r.status_code,
        final_status_code: r.final_status_code,
        redirect_url: r.redirect_url,
        error_type: r.error_type,
        content_type: r.content_type,
        // PostgreSQL returns bigint as a string.
        size_bytes: r.size_bytes === null ? null : Number(r.size_bytes),
      },
    ];
  });
}
