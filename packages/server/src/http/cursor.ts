/**
 * Opaque list cursors: base64url(payload).base64url(HMAC-SHA256(secret, payload)). The payload
 * binds the cursor to the operation, the path parameters (the campaigns of one project are not
 * those of another), the filters (every query field but cursor and limit) and the team, and
 * carries the keyset position of the last item returned.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { cursorBinding } from '@siteaudit/schema/rules';
import { ApiError } from './errors.js';

interface CursorPayload {
  v: 1;
  op: string;
  f: string;
  t: string;
  k: unknown[];
}

/** A short hash of what the cursor is bound to (`cursorBinding`, shared with the mock). */
export function filtersHash(query: Record<string, unknown>, params: Record<string, unknown> = {}): string {
  return createHash('sha256').update(cursorBinding(params, query)).digest('base64url').slice(0, 16);
}

export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }

  encode(op: string, teamId: string, query: Record<string, unknown>, key: unknown[], params: Record<string, unknown> = {}): string {
    const payload: CursorPayload = { v: 1, op, f: filtersHash(query, params), t: teamId, k: key };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The keyset position, or 400 pagination.invalid_cursor when forged or used elsewhere. */
  decode(cursor: string, op: string, teamId: string, query: Record<string, unknown>, params: Record<string, unknown> = {}): unknown[] {
    const invalid = () => new ApiError('pagination.invalid_cursor');
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined) throw invalid();
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    let payload: CursorPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
    } catch {
      throw invalid();
    }
    if (payload.v !== 1 || payload.op !== op || payload.t !== teamId || payload.f !== filtersHash(query, params) || !Array.isArray(payload.k)) {
      throw invalid();
    }
    return payload.k;
  }
}
