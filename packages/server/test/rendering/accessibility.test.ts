/**
 * axe-core: the layout-free rules on fetched HTML (scripts off, no CSS), the full rule set on
 * the page rendered in Chromium, and the findings as crawl issues (`a11y_<rule>`, category
 * accessibility, severity from the impact), which never lower the technique score.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAYOUT_RULES, createRenderer, type Renderer } from '../../src/rendering/index.js';
import { crawl } from '../../../../tests/support/crawler.js';
import { BROWSER_TIMEOUT, CHROME, HAS_CHROMIUM, SKIP_NOTE, page, serve, type LocalSite } from '../../../../tests/support/rendering.js';

/** Known violations: image-alt (critical), html-has-lang (serious), low contrast (serious, layout), a script-added unnamed button (critical). */
const flawed = page({
  lang: null,
  body: `<main><h1>Accessibility test page</h1>
<img src="/photo.png" width="10" height="10">
<p style="color:#f4f4f4;background:#ffffff">Text that nobody can read well enough.</p>
<div id="late"></div></main>
<script>document.getElementById('late').innerHTML = '<button></button>';</script>`,
});

const clean = page({ body: '<main><h1>A clean page</h1><p>Readable text, in a main landmark, with a heading.</p></main>' });

let site: LocalSite;
let renderer: Renderer;

beforeAll(async () => {
  site = await serve({
    '/': { body: flawed.replace('</main>', '<a href="/clean">Clean</a></main>') },
    '/clean': { body: clean.replace('</main>', '<a href="/">Home</a></main>') },
    '/photo.png': { type: 'image/png', body: '' },
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
  });
  renderer = createRenderer({ executablePath: CHROME, allowPrivateAddresses: true });
});
afterAll(async () => {
  await renderer?.close();
  await site?.close();
});

const rules = (findings: { rule: string }[]) => findings.map((f) => f.rule).sort();

describe.skipIf(!HAS_CHROMIUM)(`accessibility with axe-core${SKIP_NOTE}`, () => {
  it(
    'on fetched HTML runs the layout-free rules on the markup as fetched, scripts off',
    async () => {
      const findings = await renderer.auditHtml({ url: `${site.url}/`, status: 200, headers: {}, html: flawed });
      expect(rules(findings)).toEqual(expect.arrayContaining(['html-has-lang', 'image-alt']));
      // No CSS and no layout: the contrast rule does not run; the script never ran either.
      for (const rule of LAYOUT_RULES) expect(rules(findings)).not.toContain(rule);
      expect(rules(findings)).not.toContain('button-name');
      const image = findings.find((f) => f.rule === 'image-alt')!;
      expect(image).toMatchObject({ impact: 'critical', nodes: 1, help: 'Images must have alternative text' });
      expect(image.targets).toEqual(['img']);
      expect(await renderer.auditHtml({ url: `${site.url}/clean`, status: 200, headers: {}, html: clean })).toEqual([]);
    },
    BROWSER_TIMEOUT,
  );

  it(
    'rendered, runs the full rule set on the DOM the scripts built',
    async () => {
      const rendered = await renderer.render({ url: `${site.url}/`, status: 200, headers: {}, html: flawed }, { accessibility: 'full' });
      expect(rules(rendered.accessibility!)).toEqual(expect.arrayContaining(['button-name', 'color-contrast', 'html-has-lang', 'image-alt']));
      expect(rendered.html).toContain('<button></button>');
      const none = await renderer.render({ url: `${site.url}/clean`, status: 200, headers: {}, html: clean }, { accessibility: 'none' });
      expect(none.accessibility).toBeNull();
    },
    BROWSER_TIMEOUT,
  );

  it(
    'reports findings as a11y_<rule> issues with the help and the selector, scored apart from the technique',
    async () => {
      const plain = await crawl(`${site.url}/`);
      const checked = await crawl(`${site.url}/`, { checkAccessibility: true }, { renderer });
      const a11y = checked.issues.filter((i) => i.category === 'accessibility');
      const byName = new Map(a11y.map((i) => [i.name, i]));
      expect(byName.get('a11y_image-alt')).toMatchObject({ severity: 'error', url: `${site.url}/` });
      expect(byName.get('a11y_image-alt')!.details).toBe('Images must have alternative text: 1 element, img');
      expect(byName.get('a11y_html-has-lang')).toMatchObject({ severity: 'warning' });
      expect(byName.has('a11y_color-contrast')).toBe(false);
      expect(a11y.every((i) => new URL(i.url).pathname === '/')).toBe(true);
      // Same technique score with or without the accessibility findings.
      expect(checked.outcome.healthScoreExact).toBe(plain.outcome.healthScoreExact);
      expect(checked.outcome.issueCounts.error).toBe(plain.outcome.issueCounts.error + a11y.filter((i) => i.severity === 'error').length);

      const full = await crawl(`${site.url}/`, { checkAccessibilityRendered: true }, { renderer });
      const fullNames = full.issues.filter((i) => i.category === 'accessibility').map((i) => i.name);
      expect(fullNames).toEqual(expect.arrayContaining(['a11y_button-name', 'a11y_color-contrast', 'a11y_image-alt']));
      expect(full.issues.find((i) => i.name === 'a11y_color-contrast')!.severity).toBe('warning');
    },
    BROWSER_TIMEOUT,
  );
});
