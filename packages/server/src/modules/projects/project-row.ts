import type { Project } from '@siteaudit/schema';
import { bool } from '../../store/database.js';

export interface ProjectRow {
  id: string;
  team_id: string;
  name: string;
  slug: string;
  url: string;
  domain: string;
  locked: boolean | number;
  latest_crawl_id: string | null;
  latest_crawl_finished_at: string | null;
  created_at: string;
}

export function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    url: row.url,
    domain: row.domain,
    locked: bool(row.locked),
    created_at: row.created_at,
    latest_completed_crawl:
      row.latest_crawl_id && row.latest_crawl_finished_at ? { id: row.latest_crawl_id, finished_at: row.latest_crawl_finished_at } : null,
  };
}
