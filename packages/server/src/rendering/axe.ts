/**
 * axe-core in a Chromium page: the library is evaluated in the page (never added as a <script>,
 * which the page's CSP, or ours on fetched HTML, would block) and run on the main document.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AccessibilityFinding } from '../crawler/index.js';

/**
 * Rules whose verdict depends on CSS and layout we do not have on fetched HTML (no stylesheet is
 * loaded there): colours, sizes, overflow, orientation. They run only in the rendered set.
 */
export const LAYOUT_RULES = [
  'color-contrast',
  'color-contrast-enhanced',
  'link-in-text-block',
  'target-size',
  'scrollable-region-focusable',
  'css-orientation-lock',
] as const;

/** Selectors kept per finding: enough to locate the problem, bounded for storage. */
const MAX_TARGETS = 5;

let source: string | null = null;

/** The axe-core browser bundle, read once from the installed package. */
export function axeSource(): string {
  if (source === null) {
    const require = createRequire(import.meta.url);
    source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  }
  return source;
}

export function axeVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('axe-core/package.json') as { version: string }).version;
}

/**
 * Runs axe on the page. `static`: the default rule set minus LAYOUT_RULES; `full`: the default
 * rule set (WCAG A/AA and best practices; experimental rules stay off, as axe ships them).
 * Frames are not entered: a cross-origin frame never answers axe and would stall the run.
 */
export async function runAxe(page: Page, rules: 'static' | 'full'): Promise<AccessibilityFinding[]> {
  // A page that cannot answer (navigating, closed) gets axe injected, and that call reports the failure.
  const already = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object').catch(() => false);
  if (!already) await page.evaluate(axeSource());
  const disabled = rules === 'static' ? [...LAYOUT_RULES] : [];
  const raw = await page.evaluate(
    async ({ disabled, maxTargets }) => {
      const axe = (globalThis as any).axe;
      const result = await axe.run(document, {
        resultTypes: ['violations'],
        iframes: false,
        rules: Object.fromEntries(disabled.map((id: string) => [id, { enabled: false }])),
      });
      return result.violations.map((v: any) => ({
        rule: v.id as string,
        impact: (v.impact ?? 'minor') as string,
        help: v.help as string,
        nodes: v.nodes.length as number,
        targets: v.nodes.slice(0, maxTargets).map((n: any) => (Array.isArray(n.target) ? n.target.flat().join(' ') : String(n.target))),
      }));
    },
    { disabled, maxTargets: MAX_TARGETS },
  );
  const impacts = new Set(['critical', 'serious', 'moderate', 'minor']);
  return (raw as AccessibilityFinding[]).map((f) => ({ ...f, impact: impacts.has(f.impact) ? f.impact : 'minor' }));
}
