/**
 * The API rules every answer follows — rate limits, idempotency, pagination — written once and
 * run over HTTP against the server (`*.server.test.ts`, on SQLite and PostgreSQL) and against the
 * mock through msw (`*.mock.test.ts`). Each test opens a target of its own (plans and clock of
 * its choosing), so any one runs alone with `-t`.
 */
import type { RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';
import { createMockApi, DEFAULT_BASE_URL } from '@siteaudit/mock';
import { SCOPES, type Scope } from '@siteaudit/schema';
import { type PlanOverrides } from '@siteaudit/schema/rules';
import { caller, type CallInit } from '../support/http.js';

export interface TokenInput {
  /** Default `acme`; a new team is created on `plan` (default agency). */
  team?: string;
  scopes?: readonly Scope[];
  role?: 'owner' | 'admin' | 'member';
  plan?: string;
}

/** One running server or mock, as a client reaches it. */
export interface RulesHarness {
  /** A token of the `acme` team owner with every scope, on the agency plan. */
  token: string;
  call(method: string, path: string, init?: CallInit): Promise<Response>;
  tokenFor(input?: TokenInput): Promise<string>;
  close(): Promise<void>;
}

export interface RulesTarget {
  name: 'server' | 'mock';
  open(options?: { plans?: PlanOverrides; clock?: () => Date }): Promise<RulesHarness>;
  /** A site a crawl may be launched on: a local one for the server, any public name for the mock. */
  siteUrl(): Promise<string>;
  /** A site whose crawl stays running while the test runs (the mock's crawls wait for its clock). */
  busySiteUrl(): Promise<string>;
}

/**
 * The mock behind msw, a fresh one per `open` with the test's plans and clock. One msw server
 * serves the file: a target opened inside another (a test's second target) takes over the
 * handlers until it is closed.
 */
export function mockTarget(): RulesTarget {
  const server = setupServer();
  const open: RequestHandler[][] = [];
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  return {
    name: 'mock',
    siteUrl: async () => 'https://www.example.com/',
    busySiteUrl: async () => 'https://www.example.com/',
    async open(options = {}) {
      const mock = createMockApi({ plans: options.plans, ...(options.clock ? { now: options.clock } : {}) });
      open.push(mock.handlers);
      server.resetHandlers(...mock.handlers);
      // The mock starts with team acme (agency) and a few others; any other is created on demand.
      const teams = new Set(['acme', 'startup', 'hobby', 'globex']);
      let members = 0;
      const tokenFor: RulesHarness['tokenFor'] = async (input = {}) => {
        const team = input.team ?? 'acme';
        if (!teams.has(team)) {
          mock.admin.createTeam({ slug: team, name: team.toUpperCase(), plan: input.plan ?? 'agency' });
          teams.add(team);
        }
        const email = `${input.role ?? 'owner'}-${++members}@${team}.test`;
        mock.admin.addMember({ team, email, name: 'Member', role: input.role ?? 'owner' });
        return mock.admin.createToken({ team, member: email, name: 'rules', scopes: input.scopes ?? SCOPES }).token;
      };
      const token = mock.tokens.owner;
      const close = async () => {
        open.splice(open.indexOf(mock.handlers), 1);
        server.resetHandlers(...(open.at(-1) ?? []));
      };
      return { token, tokenFor, call: caller(DEFAULT_BASE_URL, token), close };
    },
  };
}
