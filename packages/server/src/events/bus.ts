/**
 * The internal event bus: modules publish what happened (crawl.completed, export.ready …) and
 * subscribers react — the webhooks module turns each event into signed deliveries. Publishing
 * inside a transaction lets a subscriber write in that same transaction, so an event is never
 * lost when the change that caused it commits.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { WebhookEventType } from '@siteaudit/schema';
import { nextEventTime } from '@siteaudit/schema/rules';

export interface DomainEvent {
  id: string;
  type: WebhookEventType;
  teamId: string;
  createdAt: string;
  data: Record<string, unknown>;
}

export type EventSubscriber = (event: DomainEvent, trx: Knex.Transaction | Knex) => Promise<void>;

export class EventBus {
  private readonly subscribers: EventSubscriber[] = [];
  /** The last event's time: each event is at least 1 ms after the previous one of this process. */
  private last = 0;

  constructor(private readonly clock: () => Date) {}

  subscribe(subscriber: EventSubscriber): void {
    this.subscribers.push(subscriber);
  }

  async publish(input: { type: WebhookEventType; teamId: string; data: Record<string, unknown> }, trx: Knex.Transaction | Knex): Promise<DomainEvent> {
    this.last = nextEventTime(this.last, this.clock().getTime());
    const event: DomainEvent = { id: randomUUID(), createdAt: new Date(this.last).toISOString(), ...input };
    for (const subscriber of this.subscribers) await subscriber(event, trx);
    return event;
  }
}
