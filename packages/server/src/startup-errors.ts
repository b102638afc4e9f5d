/**
 * Start-up mistakes said in one line for people (issue: "errors for people"): what is wrong and
 * how to fix it, for a database that does not exist, cannot be reached or is not one we know, an
 * SQLite file that cannot be opened, and an option value the server refuses. The CLI prints the
 * line alone (exit code 1) and the stack only at `--log-level debug` or `trace`.
 */

/** The database option is not one the store knows: thrown by `openDatabase` before connecting. */
export class DatabaseOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseOptionError';
  }
}

/** A connection string with its password replaced, safe to print. */
export function redactedDatabase(option: string): string {
  try {
    const url = new URL(option);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return option;
  }
}

interface Described {
  code?: unknown;
  errno?: unknown;
  message?: unknown;
  syscall?: unknown;
  hostname?: unknown;
  address?: unknown;
  port?: unknown;
}

/** Node and pg collect the attempts of a connection to several addresses in an AggregateError. */
function causes(error: unknown): Described[] {
  const out: Described[] = [];
  const seen = new Set<unknown>();
  const walk = (e: unknown) => {
    if (!e || typeof e !== 'object' || seen.has(e)) return;
    seen.add(e);
    out.push(e as Described);
    if (e instanceof AggregateError) for (const inner of e.errors) walk(inner);
    walk((e as { cause?: unknown }).cause);
  };
  walk(error);
  return out;
}

function databaseName(database: string): string {
  try {
    return decodeURIComponent(new URL(database).pathname.replace(/^\//, '')) || '(the user name)';
  } catch {
    return database;
  }
}

function databaseHost(database: string): string {
  try {
    const url = new URL(database);
    return `${url.hostname || 'localhost'}:${url.port || 5432}`;
  } catch {
    return database;
  }
}

/**
 * The one line for a start-up error, or null when it is not a mistake we recognise (the CLI then
 * prints its message). `database` is the option the process was given.
 */
export function describeStartupError(error: unknown, context: { database?: string } = {}): string | null {
  if (error instanceof DatabaseOptionError) return error.message;
  const database = context.database ?? '';
  const postgres = /^postgres(ql)?:\/\//i.test(database);
  const where = postgres ? redactedDatabase(database) : database;
  for (const e of causes(error)) {
    const code = typeof e.code === 'string' ? e.code : '';
    const message = typeof e.message === 'string' ? e.message : '';
    if (postgres) {
      if (code === '3D000') {
        const name = databaseName(database);
        return `PostgreSQL database "${name}" does not exist on ${databaseHost(database)}: create it (createdb ${name}), or give another with --database or DATABASE_URL`;
      }
      if (code === '28P01' || code === '28000') return `PostgreSQL refused the credentials of ${where}: check the user and password in --database or DATABASE_URL (${message})`;
      if (code === 'ECONNREFUSED') return `Cannot reach PostgreSQL at ${databaseHost(database)} (connection refused): start it, or fix the host and port in --database or DATABASE_URL`;
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Cannot reach PostgreSQL at ${databaseHost(database)}: the host name does not resolve; fix it in --database or DATABASE_URL`;
      if (code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || /timeout/i.test(message)) {
        return `Cannot reach PostgreSQL at ${databaseHost(database)} (${code || 'timed out'}): check that it runs and that this machine may connect to it`;
      }
    }
    if (code === 'SQLITE_CANTOPEN') return `Cannot open the SQLite file "${database.replace(/^sqlite:/, '')}": its folder must exist and be writable (or give a postgres:// URL with --database or DATABASE_URL)`;
    if (code === 'SQLITE_NOTADB') return `"${database.replace(/^sqlite:/, '')}" is not an SQLite database: give another file, or a postgres:// URL, with --database or DATABASE_URL`;
    if (code === 'ERR_SOCKET_BAD_PORT') return `Not a port: ${message.replace(/^.*Received /, '')}; give --port (or PORT) a number from 0 to 65535`;
    if (code === 'EADDRNOTAVAIL') return `Cannot listen on that address (${message}): give --host (or HOST) an address of this machine, such as 127.0.0.1 or 0.0.0.0`;
    if (message.startsWith('publicUrl ')) return `${message.replace(/^publicUrl/, '--public-url (or SITEAUDIT_PUBLIC_URL)')}: give the URL clients reach the API at, such as https://api.example.com`;
    if (message.startsWith('docsUrl ')) return `${message.replace(/^docsUrl/, '--docs-url (or SITEAUDIT_DOCS_URL)')}`;
  }
  return null;
}
