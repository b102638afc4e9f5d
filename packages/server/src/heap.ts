/**
 * The heap policy of a process that runs crawls. When the heap limit is large (Node's default on
 * a machine with a few GB of memory or more), V8 lets the heap grow to up to four times its live
 * size before the next full collection. A crawl allocates fast and keeps little (30 to 60 MB live
 * during a 50,000-page crawl), so under that policy RSS climbs to several hundred MB that are
 * mostly garbage. A fixed growing factor of 1.5 keeps the heap near 1.5 × its live size, with no
 * loss of crawl speed measured (docs/benchmarks.md, "Crawl").
 *
 * The flag is process-wide, so `siteaudit-server` sets it for its own process and an application
 * that embeds the server decides for its own (call this, or start node with the flag).
 */
import { setFlagsFromString } from 'node:v8';

export const DEFAULT_HEAP_GROWING_PERCENT = 50;
const FLAG = '--heap-growing-percent';

/**
 * Makes V8 grow the heap by `percent` % of its live size between full collections. A value given
 * on the command line or in NODE_OPTIONS wins: it is the operator's choice.
 */
export function limitHeapGrowth(percent = DEFAULT_HEAP_GROWING_PERCENT): void {
  if (!Number.isInteger(percent) || percent < 1) throw new RangeError(`percent must be a positive integer, got ${percent}`);
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((arg) => arg.replace(/_/g, '-').startsWith(FLAG))) return;
  setFlagsFromString(`${FLAG}=${percent}`);
}
