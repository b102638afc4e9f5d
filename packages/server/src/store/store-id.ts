import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * A random id kept once in the database (`settings.store_id`): it names this store's own folder
 * on disk (the log uploads' default folder), the same for every process and every restart on
 * the store, and another for another database started in the same directory.
 */
export async function storeId(knex: Knex): Promise<string> {
  const read = async () => ((await knex('settings').where({ key: 'store_id' }).first('value')) as { value: string } | undefined)?.value;
  const stored = await read();
  if (stored) return stored;
  // Two processes starting at once: the first insert wins, both read it.
  await knex('settings').insert({ key: 'store_id', value: randomBytes(8).toString('hex') }).onConflict('key').ignore();
  return (await read())!;
}
