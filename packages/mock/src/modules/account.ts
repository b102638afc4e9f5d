/**
 * Account: the current token, usage (both rate windows and the plan quotas) and the team's
 * running operations (crawls only, in the mock).
 */
import { type Me, type Operation } from '@siteaudit/schema';
import { OPERATIONS_CAP, apiAccess, quotaOf, usageAnswer, type Entitlement } from '@siteaudit/schema/rules';
import { data, type BusinessMap, type Caller } from '../context.js';
import type { MockDb } from '../db.js';
import { peek } from '../rate-limit.js';
import { isoDate, isoMonth } from '../store.js';
import { crawlProgress } from './crawls.js';


function used(db: MockDb, caller: Caller, entitlement: Entitlement, now: Date): number {
  const team = caller.team.id;
  const month = isoMonth(now);
  const today = isoDate(now);
  switch (entitlement) {
    case 'projects.max':
      return [...db.projects.values()].filter((p) => p.team_id === team).length;
    case 'crawls.monthly':
      return db.launches.filter((l) => l.team_id === team && isoMonth(Date.parse(l.at)) === month).length;
    case 'positions.tracked_keywords':
      return db.keywords.filter((k) => k.team_id === team && k.state === 'tracked').length;
    case 'positions.live_checks_per_day':
      return db.keywordChecks.filter((c) => c.team_id === team && c.date === today).length;
    case 'positions.monthly_spend':
      return db.keywordChecks.filter((c) => c.team_id === team && c.date.slice(0, 7) === month).length;
    case 'api.webhooks.max':
      return [...db.webhooks.values()].filter((w) => w.team_id === team).length;
    default:
      return 0;
  }
}

/** Quotas a team consumes; the other entitlements are per-request bounds or feature flags. */
const QUOTAS: Entitlement[] = ['projects.max', 'crawls.monthly', 'positions.tracked_keywords', 'positions.live_checks_per_day', 'positions.monthly_spend', 'api.webhooks.max'];

export const accountOperations: Pick<BusinessMap, 'getMe' | 'getUsage' | 'listOperations'> = {
  getMe({ caller }) {
    const { token, member, team, plan } = caller;
    const me: Me = {
      token: { id: token.id, name: token.name, scopes: [...token.scopes], expires_at: token.expires_at, last_used_at: token.last_used_at, created_at: token.created_at },
      user: { name: member.name, email: member.email },
      team: { slug: team.slug, name: team.name },
      plan: { key: plan.key, label: plan.label },
      api_access: apiAccess(plan),
    };
    return data(me);
  },

  getUsage({ db, caller, now }) {
    const quotas = QUOTAS.map((entitlement) => ({ entitlement, ...quotaOf(used(db, caller, entitlement, now), caller.plan.limits[entitlement]) }));
    const usage = usageAnswer(peek(db, caller.team.id, caller.plan, now), quotas);
    return data(usage);
  },

  listOperations({ db, caller, now }) {
    const running = [...db.crawls.values()].filter((c) => c.team_id === caller.team.id && c.active).sort((a, b) => b.seq - a.seq);
    const shown: Operation[] = running.slice(0, OPERATIONS_CAP).map((crawl) => {
      const { progress, crawled } = crawlProgress(crawl, now);
      return {
        kind: 'crawl',
        project_id: crawl.project_id,
        started_at: crawl.started_at ?? crawl.created_at,
        crawl: { id: crawl.id, stage: crawl.stage, progress, pages_crawled: crawled, page_budget: crawl.pages.budget },
      };
    });
    return { type: 'raw', body: { data: shown, meta: { total: running.length, shown: shown.length } } };
  },
};
