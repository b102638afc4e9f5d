/**
 * Token caches across processes on PostgreSQL (docs/deployment.md, "Across processes"): every
 * change to who may call (a member removed, a plan changed, a member rejoining) is followed by a
 * NOTIFY on one channel, with the schema as payload so deployments sharing a database keep
 * apart; every server LISTENs on a connection of its own, empties its token cache when one
 * arrives, and then acknowledges it. The notifier waits for the acknowledgement of every
 * listener that was connected when it notified (they name themselves in `application_name`),
 * so once the change returns, no process answers from a cache that predates it: PostgreSQL
 * having sent a notification is not enough, the other process must have read it.
 *
 * While the listening connection is down (a restart of the database, a network cut) nothing is
 * known of other processes' changes: the cache is emptied and trusted only for the short window
 * again until the connection is back. A listener that does not acknowledge within ACK_WAIT_MS
 * (a process frozen or cut off) is not waited for longer: it is logged.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type pg from 'pg';
import type { Logger } from '../observability/logger.js';

export const AUTH_CHANNEL = 'siteaudit_auth';
const ACK_CHANNEL = 'siteaudit_auth_ack';
/** Listening connections name themselves `siteaudit-auth <id>` so a notifier can list them. */
const LISTENER_NAME = 'siteaudit-auth';
const RECONNECT_MS = 1_000;
const ACK_WAIT_MS = 5_000;

/**
 * Tells every process on this database (this one included) to forget its cached tokens, and
 * returns once every listener connected at that moment has emptied its cache and said so. The
 * acknowledgements come back to `own` (the server's listener) or, without one connected (the
 * operator's CLI), to a listener opened for the time of the call.
 */
export async function notifyAuthChange(knex: Knex, own: AuthListener | null = null, logger?: Logger): Promise<void> {
  const nonce = randomUUID();
  const listener = own?.connected ? own : null;
  const temporary = listener ? null : new AuthListener(knex, () => undefined);
  try {
    await temporary?.start();
    const rows = (
      await knex.raw('select application_name as name from pg_stat_activity where datname = current_database() and application_name like ?', [
        `${LISTENER_NAME} %`,
      ])
    ).rows as { name: string }[];
    const expected = new Set(rows.map((row) => row.name.slice(LISTENER_NAME.length + 1)));
    const acks = (listener ?? temporary)?.acknowledgements(nonce, expected);
    await knex.raw("select pg_notify(?, current_schema() || ' ' || ?)", [AUTH_CHANNEL, nonce]);
    const missing = await acks;
    if (missing && missing.size > 0) logger?.warn({ listeners: [...missing] }, 'token cache change not acknowledged by every process');
  } finally {
    await temporary?.close();
  }
}

export class AuthListener {
  private client: pg.Client | null = null;
  private schema: string | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly id = randomUUID().replace(/-/g, '').slice(0, 16);
  /** Notifications of this process waiting for acknowledgements: the listener ids still missing. */
  private readonly waiting = new Map<string, { missing: Set<string>; done: () => void }>();

  constructor(
    private readonly knex: Knex,
    /** Empties the cache; `listening` says whether changes of other processes will be heard. */
    private readonly onChange: (listening: boolean) => void,
    private readonly logger?: Logger,
  ) {}

  get connected(): boolean {
    return this.client !== null;
  }

  /**
   * Resolves when every listener in `expected` acknowledged the notification carrying `nonce`,
   * or after ACK_WAIT_MS, with the ids that did not.
   */
  acknowledgements(nonce: string, expected: Set<string>): Promise<Set<string>> {
    return new Promise((resolve) => {
      const waiting = this.waiting;
      const timer = setTimeout(done, ACK_WAIT_MS);
      timer.unref();
      function done() {
        clearTimeout(timer);
        waiting.delete(nonce);
        resolve(expected);
      }
      if (expected.size === 0) return done();
      waiting.set(nonce, { missing: expected, done });
    });
  }

  async start(): Promise<void> {
    if (this.closed) return;
    let client: pg.Client | null = null;
    try {
      client = (await this.knex.client.acquireRawConnection()) as pg.Client;
      const connection = client;
      connection.on('notification', (message) => {
        if (!message.payload) return;
        if (message.channel === ACK_CHANNEL) {
          const [nonce, id] = message.payload.split(' ');
          const wait = this.waiting.get(nonce);
          if (wait && wait.missing.delete(id) && wait.missing.size === 0) wait.done();
          return;
        }
        if (message.channel !== AUTH_CHANNEL) return;
        const [schema, nonce] = message.payload.split(' ');
        if (schema === this.schema) this.onChange(true);
        // Acknowledged whatever the schema: the notifier counts every listener on the database.
        if (nonce) connection.query('select pg_notify($1, $2)', [ACK_CHANNEL, `${nonce} ${this.id}`]).catch((err) => this.lost(connection, err));
      });
      connection.on('error', (err) => this.lost(connection, err));
      connection.on('end', () => this.lost(connection));
      this.schema = (await connection.query('select current_schema() as schema')).rows[0].schema as string;
      await connection.query(`LISTEN ${AUTH_CHANNEL}`);
      await connection.query(`LISTEN ${ACK_CHANNEL}`);
      // Named only once listening: a notifier that counts this listener knows it will hear.
      await connection.query(`SET application_name = '${LISTENER_NAME} ${this.id}'`);
      if (this.closed) return void (await connection.end().catch(() => undefined));
      this.client = connection;
      // Changes made while no connection listened were not heard: start afresh.
      this.onChange(true);
    } catch (err) {
      if (client) this.lost(client, err);
      else this.scheduleRetry(err);
    }
  }

  private lost(client: pg.Client, err?: unknown): void {
    if (this.client === client) this.client = null;
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    if (this.closed) return;
    this.onChange(false);
    this.scheduleRetry(err);
  }

  private scheduleRetry(err: unknown): void {
    if (this.closed || this.retry) return;
    this.logger?.warn({ err }, 'token cache invalidation not listening; retrying');
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.start();
    }, RECONNECT_MS);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
    for (const { done } of this.waiting.values()) done();
  }
}
