import type { Language, Plan, Role, Scope } from '@siteaudit/schema';

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

/** Cursor position handed to list handlers: the sort key of the last item already seen. */
export interface PageRequest {
  limit: number;
  after: unknown[] | null;
}

export interface RequestContext {
  caller: Caller;
  language: Language;
  requestId: string;
  now: Date;
  idempotencyKey: string | null;
  page: PageRequest;
}
