import { OPERATIONS_CAP, apiAccess, crawlProgressPercent, usageAnswer } from '@siteaudit/schema/rules';
import type { Handlers } from '../../http/binder.js';
import type { RateLimiter } from '../../http/rate-limit.js';
import type { Services } from '../../services.js';
import type { QuotaReader } from './usage.js';
import { activeCrawlsOfTeam } from '../crawls/reads.js';

export function accountHandlers(
  services: Services,
  deps: { rateLimiter: RateLimiter; quotas: QuotaReader },
): Pick<Handlers, 'getMe' | 'getUsage' | 'listOperations'> {
  const { knex } = services;
  return {
    async getMe(ctx) {
      const { caller } = ctx;
      return {
        body: {
          data: {
            token: {
              id: caller.tokenId,
              name: caller.tokenName,
              scopes: caller.scopes,
              expires_at: caller.tokenExpiresAt,
              last_used_at: caller.tokenLastUsedAt,
              created_at: caller.tokenCreatedAt,
            },
            user: { name: caller.memberName, email: caller.memberEmail },
            team: { slug: caller.teamSlug, name: caller.teamName },
            plan: { key: caller.plan.key, label: caller.plan.label },
            api_access: apiAccess(caller.plan),
          },
        },
      };
    },

    async getUsage(ctx) {
      const states = await deps.rateLimiter.peek(ctx.caller.teamId, ctx.caller.plan.rateLimits, ctx.now);
      const usage = usageAnswer(states, await deps.quotas.read(ctx.caller, ctx.now));
      return { body: { data: usage } };
    },

    async listOperations(ctx) {
      const { total, rows } = await activeCrawlsOfTeam(knex, ctx.caller.teamId, OPERATIONS_CAP);
      const data = rows.map((row) => {
        const budget = Number(row.pages_budget);
        const crawled = Number(row.pages_crawled);
        return {
          kind: 'crawl' as const,
          project_id: row.project_id,
          started_at: row.started_at ?? row.created_at,
          crawl: {
            id: row.id,
            stage: row.stage,
            progress: crawlProgressPercent(crawled, budget),
            pages_crawled: crawled,
            page_budget: budget,
          },
        };
      });
      return { body: { data, meta: { total, shown: data.length } } };
    },
  };
}
