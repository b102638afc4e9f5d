import type { Scorecard } from '@siteaudit/schema';
import type { Handlers } from '../../http/binder.js';
import type { Services } from '../../services.js';
import { bool, json } from '../../store/database.js';
import type { CrawlRow } from '../crawls/crawl-row.js';
import { findProject } from '../projects/handlers.js';
import { CONTENT_AXES, TECHNIQUE_AXES, crawlChecks, scoreOf } from './formulas.js';

type Pillar = Scorecard['pillars'][number];

/** Bumped when a pillar's formula changes, so clients can tell scores apart. */
const VERSION = 1;

function unmeasured(key: Pillar['key'], reason: string, available = true): Pillar {
  return { key, score: null, status: available ? 'not_measured' : 'unavailable', available, version: VERSION, as_of: null, blocked_reason: reason, axes: [] };
}

export function scorecardHandlers(services: Services): Pick<Handlers, 'getScorecard'> {
  const { knex } = services;
  return {
    async getScorecard(ctx, { params }) {
      const project = await findProject(knex, ctx.caller, params.project);
      const crawl = (await knex('crawls')
        .where({ project_id: project.id, status: 'completed', settled: true })
        .orderBy([{ column: 'finished_at', order: 'desc' }, { column: 'id', order: 'desc' }])
        .first()) as CrawlRow | undefined;

      const pillars: Pillar[] = [];
      if (!crawl) {
        pillars.push(unmeasured('technique', 'no_completed_crawl'), unmeasured('contenu', 'no_completed_crawl'));
      } else {
        const data = await crawlChecks(knex, crawl.id);
        const config = json<Record<string, unknown>>(crawl.config, {});
        const technique: Pillar = {
          key: 'technique',
          score: crawl.health_score === null ? null : Math.round(crawl.health_score),
          status: crawl.health_score === null ? 'not_measured' : 'measured',
          available: true,
          version: VERSION,
          as_of: crawl.finished_at,
          blocked_reason: crawl.health_score === null ? (bool(crawl.blocked) ? `crawl_blocked:${crawl.blocked_reason}` : 'no_internal_page') : null,
          axes: TECHNIQUE_AXES.map((key) => ({ key, score: scoreOf(data, [key]), weight: 1 / TECHNIQUE_AXES.length })),
        };
        const aiChecked = bool(config.check_ai_reachability);
        const contentAxes = CONTENT_AXES.filter((k) => k !== 'ai_reachability' || aiChecked);
        const content = scoreOf(data, contentAxes);
        pillars.push(technique, {
          key: 'contenu',
          score: content,
          status: content === null ? 'not_measured' : 'measured',
          available: true,
          version: VERSION,
          as_of: crawl.finished_at,
          blocked_reason: content === null ? 'no_internal_page' : aiChecked ? null : 'ai_reachability_not_checked',
          axes: CONTENT_AXES.map((key) => ({
            key,
            score: key === 'ai_reachability' && !aiChecked ? null : scoreOf(data, [key]),
            weight: contentAxes.includes(key) ? 1 / contentAxes.length : 0,
          })),
        });
      }
      // Accessibility is scored from axe findings of a crawl that ran them; none has yet.
      const accessibility = crawl ? await knex('crawl_issues').where({ crawl_id: crawl.id, category: 'accessibility' }).first('seq') : null;
      const accessibilityChecked = crawl ? bool(json<Record<string, unknown>>(crawl.config, {}).check_accessibility) : false;
      if (crawl && accessibilityChecked && accessibility !== null) {
        const data = await crawlChecks(knex, crawl.id);
        const score = scoreOf(data, ['accessibility']);
        pillars.push({ key: 'accessibilite', score, status: score === null ? 'not_measured' : 'measured', available: true, version: VERSION, as_of: crawl.finished_at, blocked_reason: null, axes: [{ key: 'accessibility', score, weight: 1 }] });
      } else {
        pillars.push(unmeasured('accessibilite', 'accessibility_not_checked'));
      }
      pillars.push(unmeasured('acquisition', 'search_console_no_data'));
      pillars.push(unmeasured('logs', 'log_exploration_unavailable', false));
      return { body: { data: { project_id: project.id, pillars } } };
    },
  };
}
