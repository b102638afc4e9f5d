/** What other modules read of the projects, outside a request (jobs, admin tasks): a project by id. */
import type { Knex } from 'knex';
import type { ProjectRow } from './project-row.js';

/** The project's row, any team's (the caller is a job, not a token), or undefined once deleted. */
export async function projectById(knex: Knex, id: string): Promise<ProjectRow | undefined> {
  return (await knex('projects').where({ id }).first()) as ProjectRow | undefined;
}

/** The project's name, URL, domain and slug, any team's; undefined once deleted. */
export async function projectIdentity(knex: Knex, id: string): Promise<Pick<ProjectRow, 'name' | 'url' | 'domain' | 'slug'> | undefined> {
  return (await knex('projects').where({ id }).first('name', 'url', 'domain', 'slug')) as Pick<ProjectRow, 'name' | 'url' | 'domain' | 'slug'> | undefined;
}
