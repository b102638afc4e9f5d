/**
 * How long an upload's bytes live (docs/decisions/logs.md, "Retention"). A file holds every line
 * of the log, client addresses and user agents included, so it lives only while it waits for its
 * parse: removed when the parse ends (completed, or failed for good), when its import or project
 * is deleted (a parse under way stops first, its file closed), and by a sweep for any file no
 * import holds (a process that died mid-upload or mid-parse).
 */
import { randomUUID } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Knex } from 'knex';

/** The file an import's upload waits in for its parse. */
export const importFileName = (importId: string) => `${importId}.log`;

/** Where an upload is received before it has an import (renamed to its import's file when it gets one). */
export const stagingFileName = () => `${randomUUID()}.part`;

/**
 * A file no import holds is swept once it has not been written to for this long: an upload being
 * received writes every few milliseconds, and a stalled one is cut by the server's timeouts well
 * before (docs/deployment.md). Another process sharing the directory may be receiving it.
 */
export const ORPHAN_GRACE_MS = 10 * 60_000;
/** The sweep runs at start-up, then this often. */
export const SWEEP_EVERY_MS = 15 * 60_000;

const OWNED = /^([0-9a-f-]{36})\.(log|part)$/;

/**
 * Removes files of the directory that no import waiting for its parse holds (queued or parsing),
 * once untouched for `graceMs`. Returns how many went.
 */
export async function sweepUploads(knex: Knex, directory: string, now: number, graceMs = ORPHAN_GRACE_MS): Promise<number> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const owned = OWNED.exec(name);
    if (!owned) continue;
    const file = join(directory, name);
    const info = await stat(file).catch(() => null);
    if (!info || now - info.mtimeMs < graceMs) continue;
    if (owned[2] === 'log') {
      const row = await knex('log_imports').where({ id: owned[1], file_key: name }).whereIn('status', ['queued', 'parsing']).first('id');
      if (row) continue;
    }
    await rm(file, { force: true });
    removed++;
  }
  return removed;
}

/** The parses this process runs, by import: what a deletion stops before it removes the file. */
export class RunningParses {
  private readonly runs = new Map<string, { stop: () => Promise<void>; stopped: boolean }>();

  track(importId: string, stop: () => Promise<void>): void {
    this.runs.set(importId, { stop, stopped: false });
  }

  forget(importId: string): void {
    this.runs.delete(importId);
  }

  running(): string[] {
    return [...this.runs.keys()];
  }

  /** Whether the parse of this import was stopped from outside (its import deleted). */
  stopped(importId: string): boolean {
    return this.runs.get(importId)?.stopped ?? false;
  }

  /** Stops the parses of these imports running here, each once its file is closed. */
  async stop(importIds: Iterable<string>): Promise<void> {
    const stops: Promise<void>[] = [];
    for (const id of importIds) {
      const run = this.runs.get(id);
      if (!run || run.stopped) continue;
      run.stopped = true;
      stops.push(run.stop().catch(() => undefined));
    }
    await Promise.all(stops);
  }
}
