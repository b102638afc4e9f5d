/** What other modules read of the webhooks: whether an event would reach anyone. */
import type { Knex } from 'knex';
import type { WebhookEventType } from '@siteaudit/schema';
import { json } from '../../store/database.js';

/** Whether an active subscription of the team receives `type` (so an expensive payload is worth computing). */
export async function teamSubscribes(db: Knex, teamId: string, type: WebhookEventType): Promise<boolean> {
  const hooks = (await db('webhooks').where({ team_id: teamId, active: true }).select('events')) as { events: string }[];
  return hooks.some((h) => json<string[]>(h.events, []).includes(type));
}
