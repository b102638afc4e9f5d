import type { Knex } from 'knex';

/**
 * Rate counters: one row per team holding both windows, so that a decision is one atomic upsert
 * of one row (docs/decisions/rate-limits.md). The former table held a row per window, locked two
 * rows per decision and deadlocked under concurrency. `charged` records whether the last take
 * was charged: RETURNING only sees the new row, and the caller needs to know which it was.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('team_rate_counters', (t) => {
    t.uuid('team_id').primary().references('teams.id').onDelete('CASCADE');
    t.bigInteger('minute_start').notNullable();
    t.integer('minute_used').notNullable();
    t.bigInteger('day_start').notNullable();
    t.integer('day_used').notNullable();
    t.boolean('charged').notNullable();
  });
  // The units already spent in the current windows stay spent.
  const rows: { team_id: string; window: string; window_start: string | number; used: number }[] = await knex('rate_counters').select();
  const byTeam = new Map<string, { team_id: string; minute_start: number; minute_used: number; day_start: number; day_used: number; charged: boolean }>();
  for (const row of rows) {
    const entry = byTeam.get(row.team_id) ?? { team_id: row.team_id, minute_start: 0, minute_used: 0, day_start: 0, day_used: 0, charged: false };
    if (row.window === 'minute' || row.window === 'day') {
      entry[`${row.window}_start`] = Number(row.window_start);
      entry[`${row.window}_used`] = row.used;
    }
    byTeam.set(row.team_id, entry);
  }
  const entries = [...byTeam.values()];
  for (let i = 0; i < entries.length; i += 200) await knex('team_rate_counters').insert(entries.slice(i, i + 200));
  await knex.schema.dropTable('rate_counters');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_counters', (t) => {
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.string('window', 10).notNullable();
    t.bigInteger('window_start').notNullable();
    t.integer('used').notNullable();
    t.primary(['team_id', 'window']);
  });
  await knex.schema.dropTableIfExists('team_rate_counters');
}
