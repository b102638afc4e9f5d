/**
 * The operator call that links a Search Console property to a project (the API leaves it to a
 * settings screen; docs/decisions/search-console.md): `server.admin.linkSearchConsole({ projectId, property, credentials })`.
 */
import { isoDay } from '@siteaudit/schema/rules';
import { parseServiceAccount } from '../../providers/google-auth.js';
import type { Services } from '../../services.js';
import { credentialsContext, scheduleSync } from './sync-job.js';
import { transaction } from '../../store/retry.js';
import { projectById } from '../projects/reads.js';

export interface LinkSearchConsoleInput {
  projectId: string;
  /** `sc-domain:example.com` (domain property) or `https://www.example.com/` (URL-prefix property). */
  property: string;
  /** The service account's JSON key file, as an object or as text. The account must be a user of the property. */
  credentials: unknown;
}

/** Search Console names a URL-prefix property with its trailing slash; a domain property with `sc-domain:`. */
export function validProperty(property: string): boolean {
  if (/^sc-domain:[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(property)) return true;
  try {
    const url = new URL(property);
    return (url.protocol === 'https:' || url.protocol === 'http:') && property.endsWith('/') && url.href === property;
  } catch {
    return false;
  }
}

export async function linkSearchConsole(services: Pick<Services, 'knex' | 'clock' | 'secrets' | 'jobs'>, input: LinkSearchConsoleInput, fail: (message: string) => Error) {
  const { knex } = services;
  const property = input.property.trim();
  if (!validProperty(property)) throw fail('A property is sc-domain:<domain> or a URL prefix ending with a slash, e.g. https://www.example.com/');
  let credentials;
  try {
    credentials = parseServiceAccount(input.credentials);
  } catch (error) {
    throw fail((error as Error).message);
  }
  const project = await projectById(knex, input.projectId);
  if (!project) throw fail(`No project ${input.projectId}`);

  const now = services.clock();
  await transaction(knex, async (trx) => {
    const row = {
      property,
      credentials_enc: services.secrets.encrypt(JSON.stringify(credentials), credentialsContext(project.id)),
      status: 'pending',
      last_error: null,
      linked_at: now.toISOString(),
      synced_at: null,
    };
    const existing = await trx('search_console_links').where({ project_id: project.id }).first('project_id');
    if (existing) await trx('search_console_links').where({ project_id: project.id }).update(row);
    else await trx('search_console_links').insert({ project_id: project.id, ...row });
    // Data of a previous link may belong to another property: it goes, and the first sync refills it.
    await trx('search_console_daily').where({ project_id: project.id }).delete();
    await trx('search_console_inspections').where({ project_id: project.id }).delete();
    await scheduleSync(services, trx, project.id, isoDay(now), now);
  });
  return { project_id: project.id as string, property, status: 'pending' as const };
}
