/**
 * The bound on what a gzip log upload may inflate to (docs/decisions/logs.md, "Gzip bombs"),
 * the same on the server and the mock: access logs compress 10 to 50 times, deflate at most about
 * 1,030 times; a gzip bomb (a megabyte inflating to a gigabyte of zeros) would hold a parse for as
 * long as its text takes to read, and fails instead, not retried.
 */
export const MAX_INFLATION_RATIO = 300;
/** The ratio counts from this many bytes sent: a small file may inflate to 300 MiB. */
export const INFLATION_FLOOR_BYTES = 1024 * 1024;
export const INFLATION_LIMIT = 'log_import.inflation_limit';
/** The import's `error` when its upload inflated past the bound. */
export const INFLATION_FAILED = `${INFLATION_LIMIT}: The file inflates to more than ${MAX_INFLATION_RATIO} times its size, as no access log does. Send the log compressed once, or as text.`;

/** Whether `inflated` bytes of text out of `sent` bytes of gzip are past the bound. */
export function inflatesTooMuch(inflated: number, sent: number): boolean {
  return inflated > MAX_INFLATION_RATIO * Math.max(sent, INFLATION_FLOOR_BYTES);
}
