/**
 * The API's own documentation, outside the contract (no token, no rate limit): the OpenAPI
 * document at GET /openapi.json (3.1) and GET /openapi-3.0.json (its 3.0.3 rendering, for
 * generators that read only 3.0), the interactive reference at GET /docs (Scalar, every asset
 * served from here: nothing from a CDN, no fonts from the internet), the error catalogue at
 * GET /docs/errors (what every problem `type` points at), the audit's check catalogue at
 * GET /docs/checks (what each issue `name` means, why it matters, how to fix it; docs/checks.md is
 * the same catalogue) and a small index at GET /v1.
 * docs/decisions/api-reference.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { apiReference } from '@scalar/express-api-reference';
import { ERRORS, ERROR_DESCRIPTIONS, type ErrorCode } from '@siteaudit/schema';
import { CATEGORY_TITLES, checkReference } from '@siteaudit/schema/rules';
import { buildOpenApiDocument, toOpenApi30 } from '@siteaudit/schema/openapi';
import express, { type Request, type Response } from 'express';
import { encodeBody } from './compression.js';

export interface DocsOptions {
  /** The public URL of the API (no `/v1`), when known: the document's `servers`. */
  publicUrl: () => string | null;
  /** The documentation base problem types point at (`<docsUrl>/errors#<code>`). */
  docsUrl: string;
}

/** Every client Scalar would generate, but curl: the TypeScript samples come from the contract. */
const HIDDEN_CLIENTS: Record<string, true | string[]> = {
  c: true, clojure: true, csharp: true, dart: true, fsharp: true, go: true, http: true, java: true, js: true, kotlin: true, node: true,
  objc: true, ocaml: true, php: true, powershell: true, python: true, r: true, ruby: true, rust: true, swift: true,
  shell: ['httpie', 'wget'],
};

/** The file the build copies beside the bundle (tsup.config.ts), else the installed package's (a clone). */
export const SCALAR_ASSET = 'scalar-standalone.js';

function scalarScript(): string {
  const built = fileURLToPath(new URL(`./${SCALAR_ASSET}`, import.meta.url));
  if (existsSync(built)) return built;
  return createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');
}

function serverVersion(): string {
  return (createRequire(import.meta.url)('@siteaudit/server/package.json') as { version: string }).version;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The little Markdown of the error descriptions: `code` spans, escaped text otherwise. */
export function inlineMarkdown(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part) => (/^`[^`]+`$/.test(part) ? `<code>${escape(part.slice(1, -1))}</code>` : escape(part)))
    .join('');
}

/** The error catalogue as one page, each code anchored by its name. */
export function errorsPage(): string {
  const rows = (Object.keys(ERRORS) as ErrorCode[]).map((code) => {
    const entry = ERRORS[code];
    return `<tr id="${escape(code)}"><td><a href="#${escape(code)}"><code>${escape(code)}</code></a></td><td>${entry.status}</td>` +
      `<td>${escape(entry.title.en)}<br><span lang="fr">${escape(entry.title.fr)}</span></td><td>${inlineMarkdown(ERROR_DESCRIPTIONS[code])}</td></tr>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Site Audit API errors</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}tr:target{background:#fff6c8}span[lang=fr]{color:#555}</style>
</head><body>
<h1>Errors</h1>
<p>Every error is an RFC 9457 problem (<code>application/problem+json</code>) whose <code>type</code> is this page with the code as anchor.
Switch on <code>code</code>, never on <code>title</code> (it follows Accept-Language: French by default, English on request).
<a href="./">API reference</a> · <a href="../openapi.json">OpenAPI document</a> (<a href="../openapi-3.0.json">3.0</a>)</p>
<table><thead><tr><th>Code</th><th>Status</th><th>Title (en, fr)</th><th>Meaning</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>
</body></html>
`;
}

/** The check catalogue as one page, each check anchored by its name, grouped by category. */
export function checksPage(): string {
  const rows = checkReference();
  const both = (t: { en: string; fr: string }) => `${escape(t.en)}<br><span lang="fr">${escape(t.fr)}</span>`;
  const sections = [...new Set(rows.map((r) => r.category))].map((category) => {
    const body = rows
      .filter((r) => r.category === category)
      .map((r) => `<tr id="${escape(r.name)}"><td><a href="#${escape(r.name)}"><code>${escape(r.name)}</code></a>${r.site ? ' (site)' : ''}</td><td>${r.severity}</td><td>${both(r.what)}</td><td>${both(r.why)}</td><td>${both(r.fix)}</td></tr>`)
      .join('\n');
    return `<h2>${both(CATEGORY_TITLES[category])}</h2>\n<table><thead><tr><th>Check</th><th>Severity</th><th>What</th><th>Why it matters</th><th>How to fix</th></tr></thead>\n<tbody>\n${body}\n</tbody></table>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Site Audit API checks</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:80rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}tr:target{background:#fff6c8}span[lang=fr]{color:#555}</style>
</head><body>
<h1>Checks</h1>
<p>Every issue occurrence names one of these ${rows.length} checks (<code>name</code>), or an axe-core accessibility rule as <code>a11y_&lt;rule&gt;</code>
(impact critical → error, serious → warning, moderate and minor → info). Info never lowers the health score; checks marked (site) are reported once for the site.
<a href="./">API reference</a> · <a href="errors">Errors</a> · <a href="../openapi.json">OpenAPI document</a> (<a href="../openapi-3.0.json">3.0</a>)</p>
${sections.join('\n')}
</body></html>
`;
}

/** The documentation routes, for the app's first layer to hand GET and HEAD requests to. */
export function docsRouter(options: DocsOptions): express.Router {
  const router = express.Router({ strict: true });
  const version = serverVersion();
  let document: { base: string | null; json: string; json30: string } | null = null;
  /** The document (3.1, or its 3.0.3 rendering), built again when the public URL changes. */
  const openapi = (version30 = false) => {
    const base = options.publicUrl();
    if (document?.base !== base) {
      const built = buildOpenApiDocument({ version, docsUrl: options.docsUrl, ...(base ? { serverUrl: base } : {}) });
      document = { base, json: JSON.stringify(built), json30: JSON.stringify(toOpenApi30(built)) };
    }
    return version30 ? document.json30 : document.json;
  };
  const scalar = scalarScript();
  const errors = errorsPage();
  const checks = checksPage();

  // About 400 KB each, a tenth of that gzipped.
  router.get('/openapi.json', (req: Request, res: Response) => {
    res.type('application/json').send(encodeBody(req, res, openapi()));
  });
  router.get('/openapi-3.0.json', (req: Request, res: Response) => {
    res.type('application/json').send(encodeBody(req, res, openapi(true)));
  });
  router.get('/docs/assets/scalar.js', (_req: Request, res: Response) => {
    res.sendFile(scalar, { maxAge: '1d', headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
  });
  router.get('/docs/errors', (_req: Request, res: Response) => {
    res.type('text/html').send(errors);
  });
  router.get('/docs/checks', (_req: Request, res: Response) => {
    res.type('text/html').send(checks);
  });
  router.get('/docs', (req: Request, res: Response) => {
    // Paths from this app's mount point, so an application may serve it under a prefix.
    apiReference({
      url: `${req.baseUrl}/openapi.json`,
      cdn: `${req.baseUrl}/docs/assets/scalar.js`,
      pageTitle: 'Site Audit API reference',
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: false,
      documentDownloadType: 'json',
      defaultOpenAllTags: true,
      // The assistant would query api.scalar.com from a local page: nothing leaves the machine.
      agent: { disabled: true },
      // Scalar's own toolbar (Developer Tools, Configure, Share, Deploy) is not ours to show.
      showDeveloperTools: 'never',
      // curl and the TypeScript client (each operation's x-codeSamples), not a dozen generated languages.
      hiddenClients: HIDDEN_CLIENTS,
      defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
    })(req as never, res as never, () => undefined);
  });
  // With or without the trailing slash, as every path of the contract.
  router.get(['/v1', '/v1/'], (req: Request, res: Response) => {
    const base = options.publicUrl() ?? req.baseUrl;
    res.json({
      name: 'Site Audit API',
      version,
      links: { docs: `${base}/docs`, openapi: `${base}/openapi.json`, openapi_3_0: `${base}/openapi-3.0.json`, errors: `${options.docsUrl}/errors`, checks: `${options.docsUrl}/checks` },
    });
  });
  return router;
}
