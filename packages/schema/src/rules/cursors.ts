/**
 * What a list cursor is bound to besides the operation and the team (docs/decisions/pagination.md):
 * the path parameters and the filters (every query field but `cursor` and `limit`), as one
 * stable text. A cursor presented with another binding answers 400 `pagination.invalid_cursor`.
 */
export function cursorBinding(params: Record<string, unknown>, query: Record<string, unknown>): string {
  const sorted = (record: Record<string, unknown>) =>
    Object.entries(record)
      .filter(([name, value]) => name !== 'cursor' && name !== 'limit' && value !== undefined)
      .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([sorted(params), sorted(query)]);
}
