/**
 * The operator interface (docs/operations.md): what the API leaves to a settings screen
 * — teams, members, tokens, plans, locks — done from code or the CLI.
 *
 * It needs the store and nothing of the API, the crawler or the exporters: `openAdmin` gives it
 * without a server, so that `siteaudit-server admin …` starts in a fraction of a second.
 */
import { randomUUID } from 'node:crypto';
import { ROLES, SCOPES, TOKEN_DEFAULT_DAYS, TOKEN_MAX_DAYS, type Role, type Scope } from '@siteaudit/schema';
import { resolvePlans, type PlanOverrides } from '@siteaudit/schema/rules';
import { createSecretBox, generateToken, hashToken } from './crypto/secret-box.js';
import { serverSecret } from './crypto/server-secret.js';
import { announceAuthChange, TOKEN_PREFIX } from './http/auth.js';
import { createJobRunner } from './jobs/index.js';
import { linkSearchConsole, type LinkSearchConsoleInput } from './modules/search-console/link.js';
import type { Services } from './services.js';
import { closeDatabase, migrate, openDatabase, type DatabaseOption } from './store/database.js';
import { deleteTeamData, type TeamDeletionNeeds } from './team-deletion.js';

export { TOKEN_DEFAULT_DAYS, TOKEN_MAX_DAYS };

export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

export interface CreatedToken {
  /** The secret, shown once: only its hash is stored. */
  token: string;
  id: string;
  expires_at: string;
}

/** What the operator tasks use of the services: queued jobs are only enqueued, never run. */
export type AdminServices = Pick<Services, 'knex' | 'clock' | 'plans' | 'secrets' | 'jobs'>;

export interface AdminOptions {
  /**
   * Called after every change to who may call (a member removed or rejoining, a plan changed, a
   * token revoked): the server's authenticator forgets its cached tokens (and, on PostgreSQL, tells
   * every other process); the CLI's admin only tells the others.
   */
  onAuthChange(): Promise<void>;
  /** What deleting a team uses of the modules (team-deletion.ts): the server's own, or the CLI's (offline-team-deletion.ts). */
  teamDeletion(): Promise<TeamDeletionNeeds>;
}

export function createAdmin(services: AdminServices, { onAuthChange, teamDeletion }: AdminOptions) {
  const { knex } = services;

  async function teamId(slug: string): Promise<string> {
    const row = await knex('teams').where({ slug }).first('id');
    if (!row) throw new AdminError(`No team "${slug}"`);
    return row.id as string;
  }

  function assertPlan(plan: string): void {
    if (!services.plans()[plan]) throw new AdminError(`No plan "${plan}" (plans: ${Object.keys(services.plans()).join(', ')})`);
  }

  return {
    async createTeam(input: { slug: string; name: string; plan?: string }) {
      const plan = input.plan ?? 'pro';
      assertPlan(plan);
      if (!/^[a-z0-9][a-z0-9-]{0,99}$/.test(input.slug)) throw new AdminError('A team slug is lowercase letters, digits and dashes');
      if (await knex('teams').where({ slug: input.slug }).first('id')) throw new AdminError(`Team "${input.slug}" already exists`);
      const team = { id: randomUUID(), slug: input.slug, name: input.name, plan, created_at: services.clock().toISOString() };
      await knex('teams').insert(team);
      return team;
    },

    async addMember(input: { team: string; email: string; name: string; role?: Role }) {
      const role = input.role ?? 'member';
      if (!ROLES.includes(role)) throw new AdminError(`Role must be one of ${ROLES.join(', ')}`);
      const id = await teamId(input.team);
      const email = input.email.trim().toLowerCase();
      const existing = await knex('members').where({ team_id: id, email }).first();
      if (existing && !existing.removed_at) throw new AdminError(`${email} is already a member of ${input.team}`);
      if (existing) {
        // Rejoining gives a fresh membership: tokens of the earlier one stay dead.
        await knex('tokens').where({ member_id: existing.id }).delete();
        await knex('members').where({ id: existing.id }).update({ name: input.name, role, removed_at: null });
        await onAuthChange();
        return { id: existing.id as string, email, name: input.name, role };
      }
      const member = { id: randomUUID(), team_id: id, email, name: input.name, role, created_at: services.clock().toISOString(), removed_at: null };
      await knex('members').insert(member);
      return { id: member.id, email, name: input.name, role };
    },

    async createToken(input: { team: string; member: string; name: string; scopes: Scope[]; days?: number }): Promise<CreatedToken> {
      const days = input.days ?? TOKEN_DEFAULT_DAYS;
      if (!Number.isInteger(days) || days < 1 || days > TOKEN_MAX_DAYS) {
        throw new AdminError(`A token lives 1 to ${TOKEN_MAX_DAYS} days`);
      }
      const unknown = input.scopes.filter((s) => !SCOPES.includes(s));
      if (unknown.length) throw new AdminError(`Unknown scopes: ${unknown.join(', ')} (scopes: ${SCOPES.join(', ')})`);
      const id = await teamId(input.team);
      const member = await knex('members').where({ team_id: id, email: input.member.trim().toLowerCase() }).whereNull('removed_at').first('id');
      if (!member) throw new AdminError(`${input.member} is not a member of ${input.team}`);
      const now = services.clock();
      const token = generateToken(TOKEN_PREFIX);
      const row = {
        id: randomUUID(),
        team_id: id,
        member_id: member.id,
        name: input.name,
        token_hash: hashToken(token),
        scopes: JSON.stringify([...new Set(input.scopes)]),
        expires_at: new Date(now.getTime() + days * 86_400_000).toISOString(),
        last_used_at: null,
        created_at: now.toISOString(),
      };
      await knex('tokens').insert(row);
      return { token, id: row.id, expires_at: row.expires_at };
    },

    /** The member's tokens stop working at once (docs/decisions/roles-and-health.md). */
    async removeMember(input: { team: string; email: string }) {
      const id = await teamId(input.team);
      const updated = await knex('members')
        .where({ team_id: id, email: input.email.trim().toLowerCase() })
        .whereNull('removed_at')
        .update({ removed_at: services.clock().toISOString() });
      if (updated === 0) throw new AdminError(`${input.email} is not a member of ${input.team}`);
      await onAuthChange();
    },

    async setPlan(input: { team: string; plan: string }) {
      assertPlan(input.plan);
      const team = await knex('teams').where({ slug: input.team }).first('id', 'plan');
      if (!team) throw new AdminError(`No team "${input.team}"`);
      await knex('teams').where({ id: team.id }).update({ plan: input.plan });
      await onAuthChange();
      return { team: input.team, plan: input.plan, previous_plan: team.plan as string };
    },

    /** Every team, oldest first, with its count of current members. */
    async listTeams() {
      const rows = await knex('teams')
        .leftJoin('members', (j) => j.on('members.team_id', '=', 'teams.id').andOnNull('members.removed_at'))
        .groupBy('teams.id', 'teams.slug', 'teams.name', 'teams.plan', 'teams.created_at')
        .orderBy([{ column: 'teams.created_at' }, { column: 'teams.slug' }])
        .select('teams.id', 'teams.slug', 'teams.name', 'teams.plan', 'teams.created_at')
        .count({ members: 'members.id' });
      return (rows as Record<string, unknown>[]).map((r) => ({ id: r.id as string, slug: r.slug as string, name: r.name as string, plan: r.plan as string, members: Number(r.members), created_at: r.created_at as string }));
    },

    /** The team's members, removed ones included (with `removed_at`), oldest first. */
    async listMembers(input: { team: string }) {
      const id = await teamId(input.team);
      const rows = await knex('members').where({ team_id: id }).orderBy([{ column: 'created_at' }, { column: 'email' }]).select('id', 'email', 'name', 'role', 'created_at', 'removed_at');
      return rows.map((r) => ({ id: r.id as string, email: r.email as string, name: r.name as string, role: r.role as Role, created_at: r.created_at as string, removed_at: (r.removed_at as string | null) ?? null }));
    },

    /**
     * The team's tokens (of one member with `member`), oldest first: what they are for, whose,
     * their scopes and dates. Never the secret: only its hash is kept, and it is not shown either.
     */
    async listTokens(input: { team: string; member?: string }) {
      const id = await teamId(input.team);
      const query = knex('tokens').join('members', 'members.id', 'tokens.member_id').where('tokens.team_id', id);
      if (input.member) query.andWhere('members.email', input.member.trim().toLowerCase());
      const rows = await query
        .orderBy([{ column: 'tokens.created_at' }, { column: 'tokens.name' }])
        .select('tokens.id', 'tokens.name', 'members.email as member', 'members.removed_at', 'tokens.scopes', 'tokens.expires_at', 'tokens.last_used_at', 'tokens.created_at');
      const now = services.clock().toISOString();
      return rows.map((r) => ({
        id: r.id as string,
        name: r.name as string,
        member: r.member as string,
        scopes: JSON.parse(r.scopes as string) as Scope[],
        expires_at: r.expires_at as string,
        last_used_at: (r.last_used_at as string | null) ?? null,
        created_at: r.created_at as string,
        // A token works while it has not expired and its holder is still a member.
        active: (r.expires_at as string) > now && !r.removed_at,
      }));
    },

    /** Deletes a token of the team: it stops working at once, in every process. */
    async revokeToken(input: { team: string; id: string }) {
      const id = await teamId(input.team);
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(input.id)) throw new AdminError(`"${input.id}" is not a token id (admin list-tokens shows them)`);
      const row = await knex('tokens').where({ team_id: id, id: input.id.toLowerCase() }).first('id', 'name');
      if (!row) throw new AdminError(`No token ${input.id} in team ${input.team} (admin list-tokens --team ${input.team} shows them)`);
      await knex('tokens').where({ id: row.id }).delete();
      await onAuthChange();
      return { team: input.team, id: row.id as string, name: row.name as string, revoked: true };
    },

    /**
     * Deletes a team and everything of it (team-deletion.ts): members, tokens, projects,
     * campaigns, crawls and all under them, webhooks, log imports, export files. Its tokens go
     * first, forgotten by every process (401 at once), then its running crawls stop.
     */
    async deleteTeam(slug: string) {
      const id = await teamId(slug);
      await knex('tokens').where({ team_id: id }).delete();
      await onAuthChange();
      const { projects, deleted } = await deleteTeamData(knex, await teamDeletion(), id);
      // Another deletion of the team, at the same time, took its row: this one found no team, as in turn.
      if (!deleted) throw new AdminError(`No team "${slug}"`);
      return { team: slug, id, projects, deleted: true as const };
    },

    /** Links a Search Console property to a project with a service account's key; the first sync is queued. */
    linkSearchConsole: (input: LinkSearchConsoleInput) => linkSearchConsole(services, input, (message) => new AdminError(message)),

    async setProjectLocked(projectId: string, locked: boolean) {
      const updated = await knex('projects').where({ id: projectId }).update({ locked });
      if (updated === 0) throw new AdminError(`No project ${projectId}`);
    },
  };
}

export type Admin = ReturnType<typeof createAdmin>;

/**
 * The operator tasks on a database, without the API: it migrates like the server and derives the
 * same secret (Search Console credentials are encrypted with it), and runs no jobs.
 */
export async function openAdmin(options: { database: DatabaseOption; secretKey?: string; plans?: PlanOverrides; clock?: () => Date }) {
  const db = openDatabase(options.database);
  try {
    await migrate(db);
    const secret = await serverSecret(db.knex, options.secretKey ?? process.env.SITEAUDIT_SECRET_KEY);
    const plans = resolvePlans(options.plans);
    const clock = options.clock ?? (() => new Date());
    // Enqueues only: no worker, no engine maintenance; stopped with the admin.
    const jobs = createJobRunner({ knex: db.knex, dialect: db.dialect, clock, supervise: false });
    const admin = createAdmin(
      { knex: db.knex, clock, plans: () => plans, secrets: createSecretBox({ keys: [{ id: 'primary', secret }] }), jobs },
      {
        onAuthChange: () => announceAuthChange(db.knex),
        // Loaded by delete-team alone: the other commands start without the modules it reaches.
        teamDeletion: async () => (await import('./offline-team-deletion.js')).offlineTeamDeletion({ knex: db.knex, clock }),
      },
    );
    return {
      admin,
      close: async () => {
        await jobs.stop();
        await closeDatabase(db);
      },
    };
  } catch (error) {
    await closeDatabase(db);
    throw error;
  }
}
