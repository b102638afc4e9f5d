/**
 * The server's pino logger (docs/operations.md, "Logs"): JSON lines, one per request and per job
 * event, with secrets redacted. An embedding application passes its own logger, or `false`.
 */
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** The logger option of createSiteAuditServer before pino: errors only, kept for existing callers. */
export interface ErrorReporter {
  error(message: string, error?: unknown): void;
}

export type LoggerOption = Logger | ErrorReporter | false;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Whatever a log call is given, these never reach a line: bearer tokens, webhook secrets, crawl
 * credentials and Authorization headers, at the top of the object or under the names they would
 * come with. Nothing logs a request body; these catch a field passed by mistake. Paths without
 * wildcards: a `*.` path costs every line about twice the line itself (docs/benchmarks.md).
 */
const SECRET_FIELDS = ['authorization', 'token', 'secret', 'previous_secret', 'password', 'http_user', 'http_password'];
const CARRIERS = ['headers', 'req.headers', 'body', 'campaign', 'webhook', 'credentials', 'config'];
export const REDACTED_PATHS = [...SECRET_FIELDS, ...CARRIERS.flatMap((carrier) => SECRET_FIELDS.map((field) => `${carrier}.${field}`))];

/** Settings every logger made here shares: redaction and the `err` serializer (pino's default for `err`). */
export function loggerOptions(level: string): LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}

/** A level from LOG_LEVEL or --log-level; throws on a name pino does not know. */
export function parseLogLevel(value: string): string {
  const level = value.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`Unknown log level "${value}" (${LOG_LEVELS.join(', ')})`);
  return level;
}

/**
 * A logger for the command line: `level` (default LOG_LEVEL, else info) to stdout, as JSON
 * lines, or human-readable through pino-pretty for `dev`.
 */
export async function createLogger(options: { level?: string; pretty?: boolean; destination?: DestinationStream } = {}): Promise<Logger> {
  const level = parseLogLevel(options.level ?? process.env.LOG_LEVEL ?? 'info');
  if (options.pretty) {
    // A stream in this thread rather than a transport: `dev` is interactive, and a worker thread
    // per process would only add start-up time. One line per entry, a request in a few words.
    const { default: pretty } = await import('pino-pretty');
    return pino(
      { ...loggerOptions(level), hooks: { streamWrite: compactRequestLine } },
      pretty({ colorize: true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss', singleLine: true, destination: options.destination }),
    );
  }
  return pino(loggerOptions(level), options.destination ?? logDestination(1));
}

/**
 * `dev`'s request line, before pino-pretty prints it: `GET /v1/crawls/… 200 2.1 ms getCrawl` as its
 * message and no other field (the JSON line of `start` keeps them all). Every other line passes as is.
 */
export function compactRequestLine(line: string): string {
  if (!line.includes('"msg":"request"')) return line;
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (entry.msg !== 'request') return line;
  const { level, time, method, path, status, ms, op, aborted } = entry;
  const msg = `${String(method)} ${String(path)} ${String(status)} ${String(ms)} ms ${String(op)}${aborted ? ' (client gone)' : ''}`;
  return `${JSON.stringify({ level, time, msg })}${line.endsWith('\n') ? '\n' : ''}`;
}

/**
 * Where the command line writes its lines (a file descriptor or a path): buffered up to 4 kB, so
 * a line does not cost the read path a write of its own (docs/benchmarks.md, "Request log and
 * metrics"), flushed every 250 ms so a quiet server's lines still show at once, and at exit by
 * pino. A process killed outright loses at most those 250 ms of lines.
 */
export function logDestination(dest: number | string): DestinationStream {
  return pino.destination({ dest, sync: false, minLength: 4096, periodicFlush: 250 });
}

/**
 * The logger of an embedded server. Not given: warnings and errors (LOG_LEVEL overrides) to
 * stderr, where errors went before pino, so an application embedding the server does not get a
 * request line per call in its own output unless it asks. `false`: silent.
 */
export function resolveLogger(option: LoggerOption | undefined): Logger {
  if (option === false) return pino({ level: 'silent' });
  if (option === undefined) return pino(loggerOptions(parseLogLevel(process.env.LOG_LEVEL ?? 'warn')), pino.destination(2));
  if (typeof (option as Logger).child === 'function') return option as Logger;
  return fromErrorReporter(option as ErrorReporter);
}

/** `{ error(message, error) }`: error lines only, with the thrown value itself rather than its serialization. */
function fromErrorReporter(reporter: ErrorReporter): Logger {
  return pino(
    {
      level: 'error',
      hooks: {
        logMethod(args) {
          const [first, second] = args as unknown[];
          const fields = first as { err?: unknown } | undefined;
          const error = first instanceof Error ? first : fields && typeof fields === 'object' ? fields.err : undefined;
          reporter.error(typeof second === 'string' ? second : typeof first === 'string' ? first : 'error', error);
        },
      },
    },
    { write: () => undefined },
  );
}
