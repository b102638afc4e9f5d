/** A project's row, its API form, and the lookups other modules make of it. */
import type { Knex } from 'knex';
import { type Language, type Project } from '@siteaudit/schema';
import { privateSiteRefusal } from '@siteaudit/schema/rules';
import type { Caller } from '../../http/context.js';
import { ApiError, notFound } from '../../http/errors.js';
import { checkUrlAddress } from '../../net/url-check.js';
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

/** The team's project, or 404: another team's project is indistinguishable from a missing one. */
export async function findProject(knex: Knex, caller: Caller, id: string): Promise<ProjectRow> {
  const row = await knex('projects').where({ id, team_id: caller.teamId }).first();
  if (!row) throw notFound();
  return row as ProjectRow;
}

/** Writes to a read-only project are refused (updateProject, docs/openapi.json; campaigns and crawls too). */
export function assertUnlocked(project: ProjectRow): void {
  if (project.locked === true || project.locked === 1) throw new ApiError('project.locked');
}

/** A site on a private or loopback address is refused unless the server allows them (docs/decisions/outbound-addresses.md). */
export async function assertPublicSite(network: { allowPrivateAddresses: boolean }, url: string, field: string, language: Language): Promise<void> {
  const verdict = await checkUrlAddress(url, { allowPrivate: network.allowPrivateAddresses });
  if (verdict === 'refused') throw new ApiError('project.url_refused', privateSiteRefusal(field, language));
}
