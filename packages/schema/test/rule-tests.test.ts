/**
 * Tests follow the source (issue #26, "Tests"): every rule file packages/schema/src/rules/<name>.ts
 * has its own test file packages/schema/test/rules/<name>.test.ts, so a rule's test is found by
 * its file's name. The index only re-exports.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const rulesDir = new URL('../src/rules/', import.meta.url);
const testsDir = new URL('./rules/', import.meta.url);

/** The rule files (names without `.ts`) that have no `<name>.test.ts` among `tests`. */
export function untestedRules(ruleFiles: readonly string[], testFiles: readonly string[]): string[] {
  const tested = new Set(testFiles.filter((f) => f.endsWith('.test.ts')).map((f) => f.slice(0, -'.test.ts'.length)));
  return ruleFiles
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .map((f) => f.slice(0, -'.ts'.length))
    .filter((name) => !tested.has(name));
}

describe('rule tests', () => {
  it('every rule file has a test file of its name', () => {
    expect(untestedRules(readdirSync(rulesDir), readdirSync(testsDir))).toEqual([]);
  });

  // The check itself, on made-up names: a check that finds nothing is worth nothing.
  it('names a rule file without its test, and asks none of the index', () => {
    expect(untestedRules(['index.ts', 'cursors.ts', 'gates.ts', 'plans.ts'], ['cursors.test.ts', 'gates.ts', 'plans.test.ts.snap'])).toEqual(['gates', 'plans']);
  });
});
