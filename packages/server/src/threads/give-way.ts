/**
 * A background thread (the log parse) gives way to the thread that answers HTTP: on Linux a
 * thread has its own nice value, and it runs 10 above the thread that started it, so on a busy
 * machine the API thread and the store's writes get the cores first and the background work takes
 * what is left (docs/benchmarks.md, "Log import"). Elsewhere the call would change the whole
 * process, so it is not made. The crawl threads keep the process's priority: what giving way
 * would do to a crawl's pace beside other work was not measured.
 */
import { getPriority, setPriority } from 'node:os';

export const BACKGROUND_NICENESS = 10;

/** Lowers the calling thread's priority; called once, first thing, by a background thread's module. */
export function giveWayToRequests(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(Math.min(19, getPriority() + BACKGROUND_NICENESS));
  } catch {
    // Not allowed here: the thread runs at the process's priority.
  }
}
