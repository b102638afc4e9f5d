/**
 * Projects: sites followed over time. Creating one also creates its default campaign, named
 * after the host; deleting one removes everything it holds, even when the project is locked.
 */
import { logsPillar } from './logs.js';
import { type Project, type Scorecard } from '@siteaudit/schema';
import { defaultCampaignBounds, defaultProjectName, firstFreeSlug, noComputation, normaliseSiteUrl, slugify } from '@siteaudit/schema/rules';
import { assertWithinPlan } from '@siteaudit/schema/pipeline';
import { data, empty, type BusinessMap, type MockEnv } from '../context.js';
import type { MockDb, ProjectRecord } from '../db.js';
import { assertUnlocked, iso, newestFirst, nextSeq, ownedProject } from '../store.js';
import { assertPublicSite, buildCampaign, removeCampaign } from './campaigns.js';
import { crawlPillarAxes, crawlPillarScores } from './scores.js';

export function serializeProject(record: ProjectRecord): Project {
  return {
    id: record.id,
    name: record.name,
    slug: record.slug,
    url: record.url,
    domain: record.domain,
    locked: record.locked,
    created_at: record.created_at,
    latest_completed_crawl: record.latest_completed_crawl ? { ...record.latest_completed_crawl } : null,
  };
}

/** A slug unique within the team: `example-com`, then `example-com-2`… */
function uniqueSlug(db: MockDb, teamId: string, name: string, exceptId?: string): string {
  const taken = new Set([...db.projects.values()].filter((p) => p.team_id === teamId && p.id !== exceptId).map((p) => p.slug));
  return firstFreeSlug(slugify(name), taken);
}

export function removeProject(env: MockEnv, project: ProjectRecord, now: Date): void {
  const db = env.db;
  for (const campaign of [...db.campaigns.values()]) if (campaign.project_id === project.id) removeCampaign(env, campaign, now);
  db.keywords = db.keywords.filter((k) => k.project_id !== project.id);
  db.keywordChecks = db.keywordChecks.filter((k) => k.project_id !== project.id);
  // Its log imports and what they counted go with it, as the server deletes every row it holds.
  for (const [id, record] of db.logImports) if (record.import.project_id === project.id) db.logImports.delete(id);
  db.projects.delete(project.id);
}

type Pillar = Scorecard['pillars'][number];

function unmeasured(key: Pillar['key'], reason: string, available = true): Pillar {
  return { key, score: null, status: available ? 'not_measured' : 'unavailable', available, version: 1, as_of: null, blocked_reason: reason, axes: [], computation: noComputation(key) };
}

/** The scorecard of the latest settled crawl, pillar by pillar as the server builds it. */
function scorecard(db: MockDb, project: ProjectRecord, now: Date): Scorecard {
  const crawl = [...db.crawls.values()]
    .filter((c) => c.project_id === project.id && c.status === 'completed' && c.settled)
    .sort((a, b) => (b.finished_at ?? '').localeCompare(a.finished_at ?? '') || b.seq - a.seq)[0];
  if (!crawl) {
    return {
      project_id: project.id,
      pillars: [
        unmeasured('technique', 'no_completed_crawl'),
        unmeasured('contenu', 'no_completed_crawl'),
        unmeasured('accessibilite', 'accessibility_not_checked'),
        unmeasured('acquisition', 'search_console_not_linked'),
        logsPillar(db, project, now),
      ],
    };
  }
  const explained = crawlPillarAxes(crawl);
  const { technique, contenu: content } = crawlPillarScores(crawl);
  return {
    project_id: project.id,
    pillars: [
      {
        key: 'technique',
        score: technique,
        status: technique === null ? 'not_measured' : 'measured',
        available: true,
        version: 1,
        as_of: crawl.finished_at,
        blocked_reason: technique === null ? 'no_internal_page' : null,
        axes: explained.technique.axes,
        computation: technique === null ? noComputation('technique') : explained.technique.computation,
      },
      {
        key: 'contenu',
        score: content,
        status: content === null ? 'not_measured' : 'measured',
        available: true,
        version: 1,
        as_of: crawl.finished_at,
        // The mock never checks AI reachability, so that axis stays out of the score.
        blocked_reason: content === null ? 'no_internal_page' : 'ai_reachability_not_checked',
        axes: explained.contenu.axes,
        computation: explained.contenu.computation,
      },
      unmeasured('accessibilite', 'accessibility_not_checked'),
      unmeasured('acquisition', 'search_console_not_linked'),
      logsPillar(db, project, now),
    ],
  };
}

export const projectOperations: Pick<BusinessMap, 'listProjects' | 'createProject' | 'getProject' | 'updateProject' | 'deleteProject' | 'getScorecard'> = {
  listProjects({ db, caller }) {
    const projects = [...db.projects.values()].filter((p) => p.team_id === caller.team.id);
    return { type: 'list', items: newestFirst(projects, serializeProject) };
  },

  createProject({ env, db, caller, body, now, language }) {
    const site = normaliseSiteUrl(body.url);
    assertPublicSite(env, site.href, 'url', language);
    const count = [...db.projects.values()].filter((p) => p.team_id === caller.team.id).length;
    assertWithinPlan(env.plans, caller.plan, 'projects.max', count + 1, 'plan_limit.projects');
    const name = body.name ?? defaultProjectName(site);
    const project: ProjectRecord = {
      seq: nextSeq(db),
      id: env.random.uuid(),
      team_id: caller.team.id,
      name,
      slug: uniqueSlug(db, caller.team.id, name),
      url: site.href,
      domain: site.hostname,
      locked: false,
      created_at: iso(now),
      latest_completed_crawl: null,
    };
    db.projects.set(project.id, project);
    // The default campaign: the whole site, on demand, within the plan's budget, named as the project.
    const campaign = buildCampaign(env, db, project, { name: project.name, start_url: project.url, ...defaultCampaignBounds(caller.plan) }, now);
    db.campaigns.set(campaign.id, campaign);
    return data(serializeProject(project), { status: 201 });
  },

  getProject({ db, caller, params }) {
    return data(serializeProject(ownedProject(db, params.project, caller)));
  },

  updateProject({ env, db, caller, params, body, language }) {
    const project = ownedProject(db, params.project, caller);
    assertUnlocked(project);
    if (body.url !== undefined) {
      const site = normaliseSiteUrl(body.url);
      assertPublicSite(env, site.href, 'url', language);
      // The server also clears the profile and priority URLs; the mock keeps neither.
      project.url = site.href;
      project.domain = site.hostname;
    }
    if (body.name !== undefined) {
      project.name = body.name;
      project.slug = uniqueSlug(db, caller.team.id, body.name, project.id);
    }
    return data(serializeProject(project));
  },

  deleteProject({ env, db, caller, params, now }) {
    // Allowed on a locked project (docs/decisions/projects.md).
    removeProject(env, ownedProject(db, params.project, caller), now);
    return empty();
  },

  getScorecard({ db, caller, params, now }) {
    return data(scorecard(db, ownedProject(db, params.project, caller), now));
  },
};
