import type { Knex } from 'knex';
import type { PageRequest } from '../http/context.js';

/**
 * Newest-first keyset page on (created_at, id): `limit + 1` rows, the extra one telling the
 * binder there is more. Inserts between pages never shift what follows the cursor.
 */
export function newestFirst<T extends Knex.QueryBuilder>(query: T, page: PageRequest, prefix = ''): T {
  const [createdAt, id] = (page.after ?? []) as [string?, string?];
  if (createdAt !== undefined && id !== undefined) {
    query.where((q) => q.where(`${prefix}created_at`, '<', createdAt).orWhere((q2) => q2.where(`${prefix}created_at`, '=', createdAt).andWhere(`${prefix}id`, '<', id)));
  }
  return query.orderBy([{ column: `${prefix}created_at`, order: 'desc' }, { column: `${prefix}id`, order: 'desc' }]).limit(page.limit + 1) as T;
}

export const byCreation = (row: { created_at: string; id: string }) => [row.created_at, row.id];
