/**
 * Token caches across processes on PostgreSQL (docs/deployment.md, "Across processes"): every
 * change to who may call (a member removed, a plan changed, a member rejoining) is followed by a
 * NOTIFY on one channel, with the schema as payload so deployments sharing a database keep
 * apart; every server LISTENs on a connection of its own and empties its token cache when one
 * arrives. PostgreSQL sends a notification to every listener when the change commits, so the
 * other processes refuse a removed member from their next request on, without a cache window.
 *
 * While the listening connection is down (a restart of the database, a network cut) nothing is
 * known of other processes' changes: the cache is emptied and trusted only for the short window
 * again until the connection is back.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type pg from 'pg';
import type { Logger } from '../observability/logger.js';

export const AUTH_CHANNEL = 'siteaudit_auth';
const RECONNECT_MS = 1_000;
/** How long a notifier waits for its own notification to come back (it then knows PostgreSQL sent it to every listener). */
const ECHO_WAIT_MS = 1_000;

export function isPostgres(knex: Knex): boolean {
  return /pg|postgres/.test(String(knex.client.config.client ?? knex.client.dialect ?? ''));
}

/**
 * Tells every process on this database (this one included) to forget its cached tokens, and
 * returns once the notification came back to `own` (the server's listener) or, without one
 * connected (the operator's CLI), to a listener opened for the time of the call: PostgreSQL has
 * then handed it to every listener, so a request sent after this returns finds the caches emptied.
 */
export async function notifyAuthChange(knex: Knex, own: AuthListener | null = null): Promise<void> {
  const nonce = randomUUID();
  const listener = own?.connected ? own : null;
  const temporary = listener ? null : new AuthListener(knex, () => undefined);
  try {
    await temporary?.start();
    const echo = (listener ?? temporary)?.echo(nonce);
    await knex.raw("select pg_notify(?, current_schema() || ' ' || ?)", [AUTH_CHANNEL, nonce]);
    await echo;
  } finally {
    await temporary?.close();
  }
}

export class AuthListener {
  private client: pg.Client | null = null;
  private schema: string | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly echoes = new Map<string, () => void>();

  constructor(
    private readonly knex: Knex,
    /** Empties the cache; `listening` says whether changes of other processes will be heard. */
    private readonly onChange: (listening: boolean) => void,
    private readonly logger?: Logger,
  ) {}

  get connected(): boolean {
    return this.client !== null;
  }

  /** Resolves when the notification carrying `nonce` came back, or after ECHO_WAIT_MS. */
  echo(nonce: string): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ECHO_WAIT_MS);
      timer.unref();
      const echoes = this.echoes;
      function done() {
        clearTimeout(timer);
        echoes.delete(nonce);
        resolve();
      }
      this.echoes.set(nonce, done);
    });
  }

  async start(): Promise<void> {
    if (this.closed) return;
    let client: pg.Client | null = null;
    try {
      client = (await this.knex.client.acquireRawConnection()) as pg.Client;
      const connection = client;
      connection.on('notification', (message) => {
        if (message.channel !== AUTH_CHANNEL || !message.payload) return;
        const [schema, nonce] = message.payload.split(' ');
        if (schema !== this.schema) return;
        this.onChange(true);
        if (nonce) this.echoes.get(nonce)?.();
      });
      connection.on('error', (err) => this.lost(connection, err));
      connection.on('end', () => this.lost(connection));
      this.schema = (await connection.query('select current_schema() as schema')).rows[0].schema as string;
      await connection.query(`LISTEN ${AUTH_CHANNEL}`);
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
    for (const done of this.echoes.values()) done();
  }
}
