import type { Role, Scope } from '@siteaudit/schema';
import type { Plan } from '@siteaudit/schema/rules';
import type { PipelineContext } from '@siteaudit/schema/pipeline';

/** Who is calling, resolved from the bearer token before any handler runs. */
export interface Caller {
  tokenId: string;
  tokenName: string;
  scopes: Scope[];
  tokenExpiresAt: string;
  tokenCreatedAt: string;
  tokenLastUsedAt: string | null;
  teamId: string;
  teamSlug: string;
  teamName: string;
  plan: Plan;
  memberId: string;
  memberName: string;
  memberEmail: string;
  role: Role;
}

export type { PageRequest } from '@siteaudit/schema/pipeline';

/** What a handler is told besides its input (the pipeline's context with the server's caller). */
export type RequestContext = PipelineContext<Caller>;
