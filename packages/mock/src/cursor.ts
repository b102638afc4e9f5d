/**
 * Opaque list cursors (docs/decisions/pagination.md), bound to the operation, its path parameters
 * and filters, and the team. The server signs with HMAC-SHA256; the mock uses a keyed FNV
 * checksum instead, because it must run in browsers without `node:crypto` and only has to
 * detect a cursor used elsewhere or edited by hand, not resist an attacker.
 */
import { cursorBinding } from '@siteaudit/schema/rules';
import { base64UrlDecode, base64UrlEncode, hashHex } from './random.js';

interface CursorPayload {
  v: 1;
  op: string;
  t: string;
  f: string;
  k: number;
}

/** Everything a cursor is bound to apart from the operation and team: path and filters (`cursorBinding`). */
export function bindingHash(params: Record<string, unknown>, query: Record<string, unknown>): string {
  return hashHex(cursorBinding(params, query));
}

export function encodeCursor(secret: string, op: string, teamId: string, binding: string, key: number): string {
  const payload: CursorPayload = { v: 1, op, t: teamId, f: binding, k: key };
  const body = base64UrlEncode(JSON.stringify(payload));
  return `${body}.${hashHex(`${secret}.${body}`)}`;
}

/** The position after which the next page starts, or null when the cursor is not valid here. */
export function decodeCursor(secret: string, cursor: string, op: string, teamId: string, binding: string): number | null {
  const [body, checksum, extra] = cursor.split('.');
  if (!body || !checksum || extra !== undefined) return null;
  if (hashHex(`${secret}.${body}`) !== checksum) return null;
  try {
    const payload = JSON.parse(base64UrlDecode(body)) as CursorPayload;
    if (payload.v !== 1 || payload.op !== op || payload.t !== teamId || payload.f !== binding) return null;
    return typeof payload.k === 'number' && Number.isFinite(payload.k) ? payload.k : null;
  } catch {
    return null;
  }
}
