import type { Knex } from 'knex';

/** Webhook subscriptions and their delivery log (docs/decisions/webhook-delivery.md). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhooks', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('description').nullable();
    t.text('events').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.string('disabled_reason', 50).nullable();
    t.string('disabled_at', 30).nullable();
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    t.string('last_delivery_at', 30).nullable();
    // Secret-box values (never the plaintext); the previous secret signs until the overlap ends.
    t.text('secret_enc').notNullable();
    t.text('previous_secret_enc').nullable();
    t.string('secret_rotation_ends_at', 30).nullable();
    t.string('created_at', 30).notNullable();
    t.index(['team_id', 'created_at', 'id']);
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary();
    t.uuid('webhook_id').notNullable().references('webhooks.id').onDelete('CASCADE');
    t.uuid('event_id').notNullable();
    t.string('event_type', 50).notNullable();
    // The exact body we sign and send, kept so every retry sends the same bytes.
    t.text('body').notNullable();
    t.string('status', 20).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('response_status').nullable();
    t.string('error_reason', 50).nullable();
    t.integer('duration_ms').nullable();
    t.string('next_attempt_at', 30).nullable();
    t.string('delivered_at', 30).nullable();
    t.string('created_at', 30).notNullable();
    t.index(['webhook_id', 'created_at', 'id']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['webhook_deliveries', 'webhooks']) await knex.schema.dropTableIfExists(table);
}
