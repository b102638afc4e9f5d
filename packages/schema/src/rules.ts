/**
 * Pure rules shared by the server and the mock, so the two answer alike: problem bodies,
 * validation errors by field path, languages, the plan, role and scope gates, conditional GETs,
 * cursor bindings and canonical keywords.
 */
import type { z } from 'zod';
import { ERRORS, ERROR_TYPE_BASE, type ErrorCode, type Language, type Problem } from './errors.js';
import { OPERATIONS, type HttpMethod, type OperationId, type OperationInfo } from './operations.js';
import { upgradeTo, type Plan, type PlanCatalogue } from './rules/plans.js';
import type { Role, Scope } from './scopes.js';

/** `Accept-Language` → fr or en; default fr (spec: Language). Honours q-values and regions. */
export function pickLanguage(header: string | null | undefined): Language {
  if (!header) return 'fr';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { lang: tag.split('-')[0], q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((r) => (r.lang === 'fr' || r.lang === 'en') && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked[0]?.lang as Language | undefined) ?? 'fr';
}

export type ProblemExtras = Omit<Partial<Problem>, 'type' | 'title' | 'status' | 'code'>;

/**
 * The base of problem `type` URLs for a documentation base: `<docsUrl>/errors#` (a server's
 * `docsUrl` option, docs/decisions/api-reference.md), else the public documentation's.
 */
export function problemTypeBase(docsUrl?: string | null): string {
  return docsUrl ? `${docsUrl.replace(/\/+$/, '')}/errors#` : ERROR_TYPE_BASE;
}

/** An RFC 9457 body for a catalogue code, titled in the caller's language, its `type` under `typeBase`. */
export function buildProblem(code: ErrorCode, language: Language, extras: ProblemExtras = {}, typeBase = ERROR_TYPE_BASE): Problem {
  const entry = ERRORS[code];
  return { type: `${typeBase}${code}`, title: entry.title[language], status: entry.status, code, ...extras };
}

const FR_MESSAGES: Record<string, string> = {
  invalid_type: 'Type invalide',
  too_small: 'Valeur trop petite ou trop courte',
  too_big: 'Valeur trop grande ou trop longue',
  invalid_format: 'Format invalide',
  invalid_value: 'Valeur non autorisée',
  unrecognized_keys: 'Champ inconnu',
  invalid_union: 'Valeur invalide',
  not_multiple_of: 'Valeur invalide',
  required: 'Champ requis',
};

/** The French message a custom refinement carries in `params.fr`, when it has its own. */
function frenchOf(issue: z.core.$ZodIssue): string | undefined {
  const fr: unknown = issue.code === 'custom' ? issue.params?.fr : undefined;
  return typeof fr === 'string' ? fr : undefined;
}

/**
 * The code of a refinement of ours: its `params.code` (`invalid_url`, `invalid_pattern`…), never
 * zod's internal `custom`.
 */
function customCode(issue: z.core.$ZodIssue): string {
  const code: unknown = issue.code === 'custom' ? issue.params?.code : undefined;
  return typeof code === 'string' ? code : 'invalid_value';
}

/** Validation errors keyed by field path, in a null-prototype object. */
export type FieldErrors = Record<string, { code: string; message: string }[]>;

/**
 * zod issues → `errors` keyed by field path (`schedule.time`, `keywords.3`). An unknown key is
 * reported on its own path so the caller sees which field was refused. Paths are prefixed by
 * where the value came from only for the query (`query.limit` would leak our structure, so no).
 */
export function fieldErrors(issues: readonly z.core.$ZodIssue[], language: Language): FieldErrors {
  // Keys are the caller's field names: a plain object would answer `constructor` with its own.
  const out = Object.create(null) as FieldErrors;
  const add = (path: string, code: string, message: string) => {
    (out[path || '_'] ??= []).push({ code, message });
  };
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        add(base ? `${base}.${key}` : key, 'unknown_field', language === 'fr' ? 'Champ inconnu' : 'Unknown field');
      }
      continue;
    }
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    const code = missing ? 'required' : issue.code === 'custom' ? customCode(issue) : issue.code;
    const message = language === 'fr' ? (frenchOf(issue) ?? FR_MESSAGES[code] ?? 'Valeur invalide') : missing ? 'Required' : issue.message;
    add(base, code, message);
  }
  return out;
}

/** The canonical form of a keyword: trimmed, lowercase (Unicode-aware), single spaces, NFC. */
export function canonicalKeyword(keyword: string): string {
  return keyword.normalize('NFC').trim().toLocaleLowerCase('und').replace(/\s+/gu, ' ');
}

/** A refusal of a common rule: the catalogue code and the problem's extras. */
export interface Refusal {
  code: ErrorCode;
  extras: ProblemExtras;
}

/**
 * Spec, Authentication 7, first part: the team's plan opens the verb, before the rate limit.
 * A plan without API answers `api.not_in_plan`; a write on a read-only plan
 * `api.write_not_in_plan`, unless the operation is never refused by billing (untrack, deleting a
 * webhook: they only free things). Null when the plan lets the call through.
 */
export function planRefusal(op: Pick<OperationInfo, 'method' | 'billingExempt'>, plan: Plan, plans: PlanCatalogue): Refusal | null {
  if (plan.api === 'none') return { code: 'api.not_in_plan', extras: { upgrade_to: upgradeTo(plans, plan.key, (p) => p.api !== 'none') } };
  if (op.method !== 'GET' && plan.api !== 'write' && !op.billingExempt) {
    return { code: 'api.write_not_in_plan', extras: { upgrade_to: upgradeTo(plans, plan.key, (p) => p.api === 'write') } };
  }
  return null;
}

/**
 * After the rate limit: the member's role (webhooks are for owners and admins, `role.forbidden`)
 * then the token's scope (`token.missing_scope` with `required_scopes`). Null when both pass.
 */
export function accessRefusal(op: Pick<OperationInfo, 'adminOnly' | 'scope'>, role: Role, scopes: readonly Scope[]): Refusal | null {
  if (op.adminOnly && role === 'member') return { code: 'role.forbidden', extras: {} };
  if (op.scope && !scopes.includes(op.scope)) return { code: 'token.missing_scope', extras: { required_scopes: [op.scope] } };
  return null;
}

/**
 * Whether an `If-None-Match` header matches the current ETag: weak comparison (RFC 9110
 * §13.1.2, `W/` ignored on both sides) over the comma-separated list; `*` matches any current
 * representation.
 */
export function ifNoneMatchMatches(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const c = candidate.trim();
    return c === '*' || c.replace(/^W\//, '') === bare;
  });
}

/**
 * What a list cursor is bound to besides the operation and the team (spec: Endpoints rule 4):
 * the path parameters and the filters (every query field but `cursor` and `limit`), as one
 * stable text. A cursor presented with another binding answers 400 `pagination.invalid_cursor`.
 */
export function cursorBinding(params: Record<string, unknown>, query: Record<string, unknown>): string {
  const sorted = (record: Record<string, unknown>) =>
    Object.entries(record)
      .filter(([name, value]) => name !== 'cursor' && name !== 'limit' && value !== undefined)
      .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([sorted(params), sorted(query)]);
}

/** A running crawl's progress in the operations list: whole percent of its URL budget, 0..100. */
export function crawlProgressPercent(crawled: number, budget: number): number {
  return budget > 0 ? Math.min(100, Math.floor((crawled / budget) * 100)) : 0;
}

/** Every answer varies with these request headers: the caller (bearer token) and the language. */
export const VARY = 'Authorization, Accept-Language';

interface Route {
  id: OperationId;
  method: HttpMethod;
  pattern: RegExp;
  names: string[];
}
let routes: Route[] | undefined;

/** The contract's routes as patterns, in contract order; built on first use, so that importing the schema costs nothing. */
function compiledRoutes(): Route[] {
  routes ??= (Object.entries(OPERATIONS) as [OperationId, OperationInfo][]).map(([id, op]) => ({
    id,
    method: op.method,
    pattern: new RegExp(`^${op.path.replace(/:[a-z_]+/g, '([^/]+)')}/?$`),
    names: [...op.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]),
  }));
  return routes;
}

/**
 * The operation the contract routes for a method on a path (a trailing slash allowed), with its
 * path parameters as they appear in the path (still percent-encoded); null when none.
 */
export function matchOperation(method: string, path: string): { id: OperationId; params: Record<string, string> } | null {
  for (const route of compiledRoutes()) {
    if (route.method !== method) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < route.names.length; i++) params[route.names[i]] = m[i + 1];
    return { id: route.id, params };
  }
  return null;
}

/**
 * Percent-decoded path parameters, in a null-prototype object; a malformed one (`%E0%A4%A`)
 * stays as sent and fails validation (404) instead of throwing.
 */
export function decodePathParams(raw: Record<string, string>): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const name in raw) {
    try {
      out[name] = decodeURIComponent(raw[name]);
    } catch {
      out[name] = raw[name];
    }
  }
  return out;
}

/**
 * The methods the contract routes on a path under `/v1` (a trailing slash allowed), for the
 * answer to a method it does not route: 405 `method_not_allowed` with `Allow` when there are
 * some, else 404 `not_found`.
 */
export function allowedMethods(path: string): HttpMethod[] {
  return [...new Set(compiledRoutes().filter((r) => r.pattern.test(path)).map((r) => r.method))];
}
