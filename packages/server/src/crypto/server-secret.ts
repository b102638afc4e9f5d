/** The secret everything derives from (at-rest encryption, cursor signing): configured, or generated once and kept in the store. */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { MIN_KEY_SECRET_LENGTH } from './secret-box.js';

export async function serverSecret(knex: Knex, configured: string | undefined): Promise<string> {
  if (configured) {
    if (configured.length < MIN_KEY_SECRET_LENGTH) throw new Error(`secretKey must be at least ${MIN_KEY_SECRET_LENGTH} characters`);
    return configured;
  }
  const stored = await knex('settings').where({ key: 'secret_key' }).first('value');
  if (stored) return stored.value as string;
  const generated = randomBytes(32).toString('base64url');
  await knex('settings').insert({ key: 'secret_key', value: generated }).onConflict('key').ignore();
  return ((await knex('settings').where({ key: 'secret_key' }).first('value')) as { value: string }).value;
}
