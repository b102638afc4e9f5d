/**
 * Global setup of every test project: the scratch directory vitest.config.ts made for files a
 * server writes by default (exports, under SITEAUDIT_EXPORT_DIR) is removed at the end, so that
 * `npm test` leaves nothing in the working tree or the temporary directory.
 */
import { rm } from 'node:fs/promises';

export default function scratch(): () => Promise<void> {
  return async () => {
    const dir = process.env.SITEAUDIT_TEST_SCRATCH;
    if (dir) await rm(dir, { recursive: true, force: true });
  };
}
