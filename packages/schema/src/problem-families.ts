/**
 * The problem bodies of the OpenAPI document by family (docs/decisions/openapi-generation.md):
 * each is `Problem` narrowed to its codes, with the fields the server always sends with them, so a
 * generated client types `errors` of a 422 `validation_failed` as present. A code belongs to the
 * first family whose test it passes, else to the family of its HTTP status: a code added to
 * `ERRORS` lands in a family without being named here.
 */
import { z } from 'zod';
import { ERRORS, FieldError, Problem, type ErrorCode } from './errors.js';

interface Family {
  /** Codes of the family, beyond its status (the status families take what is left). */
  readonly has?: (code: ErrorCode) => boolean;
  readonly status?: number;
  /** The fields the server sends with every code of the family. */
  readonly fields?: z.ZodRawShape;
}

/** Plan refusals: the API or write access, any `plan_limit.*`, the per-project keyword ceiling. */
const PLAN_CODES = new Set<string>(['api.not_in_plan', 'api.write_not_in_plan', 'keywords.project_limit']);
const upgradeTo = z.string().nullable().describe('the plan that lifts the refusal; null when none does');

const FAMILIES: Record<string, Family> = {
  ValidationProblem: {
    has: (code) => code === 'validation_failed',
    fields: { errors: z.record(z.string(), z.array(FieldError)).describe('messages by field path (`schedule.time`, `keywords.3`)') },
  },
  RateLimitedProblem: {
    has: (code) => code === 'rate_limited',
    fields: {
      window: z.enum(['minute', 'day']).describe('the exhausted window'),
      retry_after: z.int().min(0).describe('seconds to wait, also sent in Retry-After'),
      upgrade_to: upgradeTo,
    },
  },
  MissingScopeProblem: {
    has: (code) => code === 'token.missing_scope',
    fields: { required_scopes: z.array(z.string()).min(1).describe('the scopes the operation needs') },
  },
  PlanProblem: { has: (code) => code.startsWith('plan_limit.') || PLAN_CODES.has(code), fields: { upgrade_to: upgradeTo } },
  BadRequestProblem: { status: 400 },
  UnauthenticatedProblem: { status: 401 },
  ForbiddenProblem: { status: 403 },
  NotFoundProblem: { status: 404 },
  MethodNotAllowedProblem: { status: 405 },
  ConflictProblem: { status: 409 },
  GoneProblem: { status: 410 },
  ContentTooLargeProblem: { status: 413 },
  UnsupportedMediaTypeProblem: { status: 415 },
  UnprocessableProblem: { status: 422 },
  HeadersTooLargeProblem: { status: 431 },
  InternalErrorProblem: { status: 500 },
  ServiceUnavailableProblem: { status: 503 },
};

const CODES = Object.keys(ERRORS) as ErrorCode[];

/** The codes of the family `name`, in catalogue order. */
export function problemFamilyCodes(name: string): ErrorCode[] {
  return CODES.filter((code) => problemFamilyOf(code) === name);
}

/** The name of the family of `code`. */
export function problemFamilyOf(code: ErrorCode): string {
  const special = Object.entries(FAMILIES).find(([, f]) => f.has?.(code));
  if (special) return special[0];
  const byStatus = Object.entries(FAMILIES).find(([, f]) => f.status === ERRORS[code].status);
  if (!byStatus) throw new Error(`no problem family for ${code} (status ${ERRORS[code].status}): add one to problem-families.ts`);
  return byStatus[0];
}

/**
 * Each family's schema: `Problem`'s properties, `status` and `code` narrowed to the family's, its
 * fields required. A standalone object, not `allOf: [Problem, narrowing]`: a child that redeclares
 * its parent's `status` and `code` with other types stops AutoRest ("duplicate property") and is
 * hidden by NSwag, and a family has nothing to inherit that it does not list. `status` is an
 * integer with an `enum` (a `z.literal` would say `type: number`). Only the document reads these:
 * the SDK's type is `Problem`.
 */
export const PROBLEM_FAMILIES: Record<string, z.ZodType> = Object.fromEntries(
  Object.entries(FAMILIES).flatMap(([name, family]) => {
    const codes = problemFamilyCodes(name);
    if (!codes.length) return [];
    const statuses = [...new Set(codes.map((code) => ERRORS[code].status))];
    const status = z.int().meta({ enum: statuses, format: 'int32' });
    const schema = z.object({ ...Problem.shape, status, code: z.enum(codes as [ErrorCode, ...ErrorCode[]]), ...family.fields }).meta({
      id: name,
      description: `Problem details of the codes ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    });
    return [[name, schema]];
  }),
);
