import { z } from 'zod';
import { DateTime, PageQuery, Uuid } from '../common.js';
import { SiteUrl } from './projects.js';
import { PATTERN_LIMITS, patternProblem } from '../rules/url-patterns.js';

export const SCHEDULE_FREQUENCIES = ['manual', 'daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export const Schedule = z
  .object({
    frequency: z.enum(SCHEDULE_FREQUENCIES),
    day: z.string().nullable().describe('weekly: monday..sunday; monthly: 1..28; otherwise null'),
    time: z.string().nullable().describe('HH:MM, UTC; null for manual'),
    paused: z.boolean(),
    next_run_at: DateTime.nullable(),
  })
  .meta({ id: 'Schedule' });

export const Campaign = z
  .object({
    id: Uuid,
    project_id: Uuid,
    name: z.string(),
    start_url: z.string(),
    max_depth: z.int(),
    max_urls: z.int(),
    javascript_rendering: z.boolean(),
    pagespeed: z.boolean(),
    check_external_links: z.boolean(),
    check_ai_reachability: z.boolean(),
    check_accessibility: z.boolean(),
    protected_site: z.boolean(),
    schedule: Schedule,
    created_at: DateTime,
  })
  .meta({ id: 'Campaign', description: 'A reusable crawl configuration. HTTP credentials are never returned.' });
export type Campaign = z.infer<typeof Campaign>;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** `day` of a monthly schedule: a string, 1 to 28, so every month has it. */
export const MONTH_DAYS = Array.from({ length: 28 }, (_, i) => String(i + 1)) as [string, ...string[]];

export const ScheduleInput = z
  .strictObject({
    frequency: z.enum(SCHEDULE_FREQUENCIES),
    // Typed with its values, so the document names them and `day: 1` is told the expected type.
    day: z
      .enum([...WEEKDAYS, ...MONTH_DAYS], {
        error: (issue) =>
          `Expected ${typeof issue.input === 'string' ? '' : `a string, not ${issue.input === null ? 'null' : typeof issue.input}: `}monday..sunday (weekly) or "1".."28" (monthly)`,
      })
      .nullable()
      .optional()
      .meta({ description: 'weekly: `monday`..`sunday`; monthly: `"1"`..`"28"` (a string); unused (null) for manual and daily' }),
    time: z.string().regex(TIME, 'Expected HH:MM (UTC)').nullable().optional(),
    paused: z.boolean().optional(),
  })
  .superRefine((s, ctx) => {
    if (s.frequency === 'weekly' && s.day != null && !(WEEKDAYS as readonly string[]).includes(s.day)) {
      ctx.addIssue({ code: 'custom', path: ['day'], message: `Expected one of ${WEEKDAYS.join(', ')}`, params: { code: 'invalid_value' } });
    }
    if (s.frequency === 'monthly' && s.day != null && !/^([1-9]|1\d|2[0-8])$/.test(s.day)) {
      ctx.addIssue({ code: 'custom', path: ['day'], message: 'Expected a day of the month from 1 to 28', params: { code: 'invalid_value' } });
    }
  })
  .meta({ id: 'ScheduleInput' });
export type ScheduleInput = z.infer<typeof ScheduleInput>;

/** A pattern list: refused with the entry and the reason when outside RE2 syntax or the bounds. */
const Patterns = z
  .string()
  .max(PATTERN_LIMITS.fieldLength, { abort: true })
  .superRefine((value, ctx) => {
    const problem = patternProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.en, params: { code: 'invalid_pattern', fr: problem.fr } });
  })
  .nullable()
  .describe(
    `URL patterns, one per line: globs (\`/blog/\`, \`*.pdf$\`) or \`re:\` RE2 expressions; at most ${PATTERN_LIMITS.entries} entries of ${PATTERN_LIMITS.entryLength} characters, ${PATTERN_LIMITS.fieldLength} in all`,
  );

/** The four fields a campaign cannot be created without. */
const requiredFields = {
  name: z.string().trim().min(1).max(120),
  start_url: SiteUrl,
  max_depth: z.int().min(0).max(100),
  max_urls: z.int().min(1).max(1_000_000),
};

/** Fields that may be left out at creation; those after `protected_site` are write-only. */
const optionalFields = {
  javascript_rendering: z.boolean(),
  pagespeed: z.boolean(),
  check_external_links: z.boolean(),
  check_ai_reachability: z.boolean(),
  check_accessibility: z.boolean(),
  check_accessibility_rendered: z.boolean(),
  include_patterns: Patterns,
  exclude_patterns: Patterns,
  issue_exclusion_patterns: Patterns,
  timeout: z.int().min(1).max(120).nullable().describe('seconds per request; null for the default (20)'),
  retries: z.int().min(0).max(10).nullable().describe('retries on 5xx and timeouts; null for the default (2)'),
  // Hundredths: stored alike by both databases (a subnormal such as 5e-324 rounds to 0, where
  // PostgreSQL's `real` would refuse it).
  duplication_threshold: z
    .number()
    .min(0)
    .max(100)
    .multipleOf(0.01)
    .transform((v) => Math.round(v * 100) / 100)
    .nullable()
    .describe('near-duplicate similarity, in percent; null for the default (90)'),
  regression_threshold: z.enum(['off', 'warning', 'error']),
  protected_site: z.boolean(),
  http_user: z.string().max(256).nullable(),
  http_password: z.string().max(256).nullable(),
  notify: z.boolean(),
  schedule: ScheduleInput,
};

type Optionals<T extends Record<string, z.ZodType>> = { [K in keyof T]: z.ZodOptional<T[K]> };
function optionals<T extends Record<string, z.ZodType>>(fields: T): Optionals<T> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as Optionals<T>;
}

export const CreateCampaignBody = z
  .strictObject({ ...requiredFields, ...optionals(optionalFields) })
  .meta({ id: 'CreateCampaignBody' });
export type CreateCampaignBody = z.infer<typeof CreateCampaignBody>;

/** Partial update: absent fields keep their value; an absent http_password stays unchanged. */
export const UpdateCampaignBody = z
  .strictObject(optionals({ ...requiredFields, ...optionalFields }))
  .meta({ id: 'UpdateCampaignBody' });
export type UpdateCampaignBody = z.infer<typeof UpdateCampaignBody>;

export const CampaignParams = z.strictObject({ campaign: Uuid });
export const ListCampaignsQuery = PageQuery;
