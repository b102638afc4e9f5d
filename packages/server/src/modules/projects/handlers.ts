import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { defaultProjectName, firstFreeSlug, normaliseSiteUrl, slugify } from '@siteaudit/schema/rules';
import { assertWithinPlan } from '@siteaudit/schema/pipeline';
import type { Handlers } from '../../http/binder.js';
import { ApiError, deletedOrNotFound, notFound } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { insertDefaultCampaign } from '../campaigns/writes.js';
import { byCreation, newestFirst } from '../paging.js';
import { lockTeam } from '../team-lock.js';
import { assertPublicSite, assertUnlocked, findProject, toProject, type ProjectRow } from './project-row.js';

/** What a deletion asks of the logs module (handed by server.ts): stop its parses, remove its uploads, then leave no readable copy. */
export interface LogEraser {
  beforeProjectDelete(projectId: string): Promise<void>;
  afterDelete(): Promise<void>;
}

/** Runs a deletion and removes the export files of what it deleted, even across a crash (the exports module provides it). */
export interface ExportEraser {
  deleteWith(where: { project_id: string }, remove: (trx: Knex.Transaction) => Promise<unknown>): Promise<void>;
}

/**
 * Stops the running crawls of a project, then runs its deletion, which checks in its transaction
 * that no crawl was launched meanwhile (the crawls module provides it: running-crawls.ts).
 */
export interface CrawlStopper {
  stopThen<T>(where: { project_id: string }, remove: (assertStopped: (trx: Knex.Transaction) => Promise<void>) => Promise<T>): Promise<T>;
}
import { transaction } from '../../store/retry.js';

async function uniqueSlug(knex: Knex, teamId: string, base: string, exceptId?: string): Promise<string> {
  const query = knex('projects').where({ team_id: teamId }).andWhere('slug', 'like', `${base}%`);
  if (exceptId) query.whereNot('id', exceptId);
  return firstFreeSlug(base, new Set<string>((await query.pluck('slug')) as string[]));
}

export function projectHandlers(services: Services, { stopper: crawls, logs, exports }: { stopper: CrawlStopper; logs: LogEraser; exports: ExportEraser }): Pick<Handlers, 'listProjects' | 'createProject' | 'getProject' | 'updateProject' | 'deleteProject'> {
  const { knex, reads } = services;
  return {
    async listProjects(ctx) {
      const rows = await newestFirst(reads('projects').where({ team_id: ctx.caller.teamId }), ctx.page);
      return { items: (rows as ProjectRow[]).map(toProject), key: byCreation };
    },

    async createProject(ctx, { body }) {
      const site = normaliseSiteUrl(body.url);
      await assertPublicSite(services.network, site.href, 'url', ctx.language);
      const name = body.name ?? defaultProjectName(site);
      const plan = ctx.caller.plan;
      const row = await transaction(knex, async (trx) => {
        await lockTeam(trx, services.dialect, ctx.caller.teamId);
        const [{ count }] = await trx('projects').where({ team_id: ctx.caller.teamId }).count({ count: '*' });
        assertWithinPlan(services.plans(), plan, 'projects.max', Number(count) + 1, 'plan_limit.projects');
        const project: ProjectRow = {
          id: randomUUID(),
          team_id: ctx.caller.teamId,
          name,
          slug: await uniqueSlug(trx, ctx.caller.teamId, slugify(name)),
          url: site.href,
          domain: site.hostname,
          locked: false,
          latest_crawl_id: null,
          latest_crawl_finished_at: null,
          created_at: ctx.now.toISOString(),
        };
        await trx('projects').insert(project);
        await insertDefaultCampaign(trx, project, plan, ctx.now);
        return project;
      });
      return { body: { data: toProject(row) } };
    },

    async getProject(ctx, { params }) {
      return { body: { data: toProject(await findProject(reads, ctx.caller, params.project)) } };
    },

    async updateProject(ctx, { params, body }) {
      assertUnlocked(await findProject(knex, ctx.caller, params.project));
      const site = body.url !== undefined ? normaliseSiteUrl(body.url) : undefined;
      if (site) await assertPublicSite(services.network, site.href, 'url', ctx.language);
      // Read and written in one transaction, the row locked (SQLite runs one transaction at a
      // time): two updates at the same time (a rename, a new URL) each answer the other's change
      // when it came first, instead of the project as it was before both.
      const row = await transaction(knex, async (trx) => {
        // Under the team lock, like creation: two renames at once cannot pick the same slug.
        if (body.name !== undefined) await lockTeam(trx, services.dialect, ctx.caller.teamId);
        const query = trx('projects').where({ id: params.project, team_id: ctx.caller.teamId });
        const project = (await (services.dialect === 'postgres' ? query.forUpdate() : query).first()) as ProjectRow | undefined;
        if (!project) throw notFound();
        assertUnlocked(project);
        const changes: Partial<ProjectRow> & { profile?: null; priority_urls?: null } = {};
        if (site && site.href !== project.url) {
          // A new site makes the learned profile and priority URLs meaningless (docs/decisions/projects.md).
          Object.assign(changes, { url: site.href, domain: site.hostname, profile: null, priority_urls: null });
        }
        if (body.name !== undefined) {
          changes.name = body.name;
          changes.slug = await uniqueSlug(trx, ctx.caller.teamId, slugify(body.name), project.id);
        }
        if (Object.keys(changes).length > 0) await trx('projects').where({ id: project.id }).update(changes);
        return { ...project, ...changes };
      });
      return { body: { data: toProject(row) } };
    },

    async deleteProject(ctx, { params }) {
      const project = await findProject(knex, ctx.caller, params.project);
      // Allowed on a locked project (docs/decisions/projects.md). Running crawls and log parses
      // stop first, uploaded logs and export files go with them; the rest cascades, and leaves
      // no readable copy.
      await crawls.stopThen({ project_id: project.id }, async (assertStopped) => {
        await logs.beforeProjectDelete(project.id);
        await exports.deleteWith({ project_id: project.id }, async (trx) => {
          // Held from here: a launch's crawl references the project, so it waits, then finds it gone.
          const query = trx('projects').where({ id: project.id });
          if (!(await (services.dialect === 'postgres' ? query.forUpdate() : query).first('id'))) throw notFound();
          await assertStopped(trx);
          deletedOrNotFound(await trx('projects').where({ id: project.id }).delete());
        });
      });
      await logs.afterDelete();
    },
  };
}
