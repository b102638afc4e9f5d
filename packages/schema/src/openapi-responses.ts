/**
 * The response headers and the shared answers of the OpenAPI document, each where the server
 * sends it (docs/decisions/rate-limits.md, errors.md): one component each, referred to by `$ref`.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { ERRORS, type ErrorCode } from './errors.js';
import { problemFamilyCodes, problemFamilyOf } from './problem-families.js';

type Header = { description: string; required?: boolean; schema: { type: 'string' | 'integer'; minimum?: number } };
type Ref = { $ref: string };

const text = { type: 'string' as const };
const count = { type: 'integer' as const, minimum: 0 };

/** Every header the API sends beyond HTTP's own (Date, Content-Length, Connection…), by component name. */
export const HEADERS: Record<string, Header> = {
  'X-Request-Id': { description: 'Identifies the request in the server log and in problem `request_id`.', required: true, schema: text },
  'Content-Language': { description: 'The language of problem titles and messages: `fr` or `en` (from Accept-Language).', required: true, schema: text },
  'X-Request-Cost': { description: 'Rate-limit units this call cost (0 for a 304 or a 429).', schema: count },
  RateLimit: { description: 'Per limited window, units remaining and seconds until more (IETF draft syntax): `"minute";r=598;t=42, "day";r=99990;t=3600`.', schema: text },
  'RateLimit-Policy': { description: 'The limited windows of the team: `"minute";q=600;w=60, "day";q=100000;w=86400`.', schema: text },
  'X-RateLimit-Limit': { description: 'Units per minute (absent when the minute is unlimited).', schema: count },
  'X-RateLimit-Remaining': { description: 'Units left in the current minute.', schema: count },
  'X-RateLimit-Reset': { description: 'Seconds until the minute window resets.', schema: count },
  'Retry-After': { description: 'Seconds to wait before sending the request again.', required: true, schema: count },
  ETag: { description: 'Weak validator of the representation: send it back in If-None-Match.', required: true, schema: text },
  'Cache-Control': { description: '`private, no-cache`: a cache may keep the answer for this caller but must revalidate it.', required: true, schema: text },
  'WWW-Authenticate': { description: 'The bearer challenge (RFC 6750), with `error="invalid_token"` when a token was sent.', required: true, schema: text },
  Allow: { description: 'The methods the path answers.', required: true, schema: text },
  'Idempotent-Replayed': { description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.', schema: text },
  'Content-Disposition': { description: '`attachment; filename="…"`: the file name to save under.', required: true, schema: text },
  Location: { description: 'Where to poll the created resource.', required: true, schema: text },
};

export const ref = (name: string): Ref => ({ $ref: `#/components/headers/${name}` });
const pick = (...names: string[]): Record<string, Ref> => Object.fromEntries(names.map((n) => [n, ref(n)]));

/** On every answer. */
export const COMMON_HEADERS = pick('X-Request-Id', 'Content-Language');
/** Once the call is counted (after authentication and the plan): successes, 304, most refusals. */
export const RATE_HEADERS = pick('X-Request-Cost', 'RateLimit', 'RateLimit-Policy', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset');
export const CONDITIONAL_HEADERS = pick('ETag', 'Cache-Control');
/** The same headers, optional: a refusal before the rate limit (the plan's 403) has none. */
export const OPTIONAL_RATE_HEADERS = RATE_HEADERS;

const PROBLEM_MEDIA = 'application/problem+json';

/** `[code](…/errors#code)` links of the codes, for descriptions. */
export function codeLinks(codes: readonly ErrorCode[], docsUrl: string): string {
  return codes.map((code) => `[\`${code}\`](${docsUrl}/errors#${code})`).join(', ');
}

/** The unions of problem families that answers refer to, by component name, collected as the document is built. */
export type ProblemUnions = Map<string, Record<string, unknown>>;

/**
 * The body of a problem answer with `codes` (all of one status): the family of each code
 * (problem-families.ts), by `$ref`. When several, a named union (`MissingScopeOrPlanProblem`,
 * added to `unions`): `oneOf` the families with a `discriminator` on `code` whose mapping names
 * the family of each of their codes (several codes map to one family). Named once rather than
 * written inline in each answer: one type per union in a generated client, and the mapping's
 * 17 entries once instead of in 50 answers. The operation's exact codes are in the description
 * and in `x-error-codes`.
 */
export function problemSchema(codes: readonly ErrorCode[], unions: ProblemUnions): Record<string, unknown> {
  const families = [...new Set(codes.map(problemFamilyOf))];
  const refOf = (name: string) => `#/components/schemas/${name}`;
  if (families.length === 1) return { $ref: refOf(families[0]) };
  const name = `${families.map((family) => family.replace(/Problem$/, '')).join('Or')}Problem`;
  const mapping = Object.fromEntries(families.flatMap((family) => problemFamilyCodes(family).map((code) => [code, refOf(family)])));
  unions.set(name, {
    oneOf: families.map((family) => ({ $ref: refOf(family) })),
    discriminator: { propertyName: 'code', mapping },
    description: `One of ${families.map((family) => `\`${family}\``).join(', ')}, told apart by \`code\`.`,
  });
  return { $ref: refOf(name) };
}

/** A problem answer with `codes` (all of one status). */
export function problemResponse(codes: readonly ErrorCode[], docsUrl: string, headers: Record<string, Ref>, unions: ProblemUnions): Record<string, unknown> {
  return {
    description: `Problem details. Codes: ${codeLinks(codes, docsUrl)}.`,
    headers,
    content: { [PROBLEM_MEDIA]: { schema: problemSchema(codes, unions) } },
  };
}

/** The same answer on every operation, by status: one component each, referred to by `$ref`. */
export const SHARED_STATUSES: Record<number, string> = {
  401: 'Unauthenticated',
  429: 'RateLimited',
  431: 'HeadersTooLarge',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

/** The headers, the shared answers, and the 405 that belongs to no operation (a method the path does not route). */
export function registerSharedResponses(registry: OpenAPIRegistry, docsUrl: string, unions: ProblemUnions): void {
  for (const [name, header] of Object.entries(HEADERS)) registry.registerComponent('headers', name, header);
  const codes = (status: number) => (Object.keys(ERRORS) as ErrorCode[]).filter((c) => ERRORS[c].status === status);
  const answer = (status: number, headers: Record<string, Ref>, description?: string) => {
    const response = problemResponse(codes(status), docsUrl, headers, unions);
    return description ? { ...response, description: `${description} ${response.description as string}` } : response;
  };
  const counted = { ...COMMON_HEADERS, ...OPTIONAL_RATE_HEADERS };
  const shared: Record<string, Record<string, unknown>> = {
    Unauthenticated: answer(401, { ...COMMON_HEADERS, ...pick('WWW-Authenticate') }, 'No valid bearer token (before the rate limit: no rate-limit headers).'),
    // Also what repeated failed authentications from one address get (docs/decisions/rate-limits.md).
    RateLimited: answer(429, { ...counted, ...pick('Retry-After') }, 'Rate limit reached: nothing was done and nothing charged.'),
    HeadersTooLarge: answer(431, COMMON_HEADERS, 'Header block above 16 KiB, refused by Node before any route: titled in French, the headers unread.'),
    InternalError: answer(500, counted, 'An unexpected error.'),
    ServiceUnavailable: answer(503, { ...counted, ...pick('Retry-After') }, 'Shutting down, or not available on this server.'),
    MethodNotAllowed: answer(405, { ...COMMON_HEADERS, ...pick('Allow') }, 'A method the path does not answer (any path of the API; no operation can list it).'),
  };
  for (const [name, response] of Object.entries(shared)) registry.registerComponent('responses', name, response as never);
}
