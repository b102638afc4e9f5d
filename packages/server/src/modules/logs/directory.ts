/**
 * The folder uploads wait in for their parse (docs/decisions/logs.md, "The upload"). Its files
 * hold every client address, user agent, referer and user name of a log: the folder is made
 * 0700 and the files 0600 (upload.ts), so no other account of the machine lists or reads them.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The default folder of a store: `./.siteaudit/logs/<store id>`, beside the exports'
 * `./.siteaudit/exports`. The same after a restart, so the start-up sweep finds what a process
 * that died left, and a queued import finds its file; one per database, so a sweep never takes a
 * file another store's import waits with.
 */
export const defaultLogDirectory = (storeId: string) => join(process.cwd(), '.siteaudit', 'logs', storeId);

/**
 * Creates the folder (0700, with any parent it needs). A folder of ours made before this rule is
 * closed to others; one an operator configured is left as it is, with a warning when others may
 * read it (it may be shared on purpose, with a group).
 */
export function openLogDirectory(directory: string, ours: boolean, warn: (message: string) => void): void {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  if (ours) chmodSync(directory, 0o700);
  else if (statSync(directory).mode & 0o077) {
    warn(`the log upload folder ${directory} is open to other users (mode ${(statSync(directory).mode & 0o777).toString(8)}): its files hold client addresses; chmod 700 it unless a group must share it`);
  }
}
