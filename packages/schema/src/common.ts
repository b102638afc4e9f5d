import { z } from 'zod';

/** Identifiers are UUID strings (docs/openapi.json). */
export const Uuid = z.uuid();
/** Timestamps are ISO 8601 UTC date-times. */
export const DateTime = z.iso.datetime();
/** Plain dates are YYYY-MM-DD. */
export const PlainDate = z.iso.date();

/**
 * `format: int64` in the OpenAPI document, for an integer that can pass 2^31 (byte sizes, summed
 * hits), so that a generated Java, C# or Go client gives it a 64-bit type. Documentation only:
 * validation is unchanged and the TypeScript type stays `number` (docs/decisions/openapi-generation.md).
 */
export const int64 = <T extends z.ZodType>(schema: T): T => schema.meta({ format: 'int64' });
/** `format: int32`, for an integer that never leaves 32 bits but whose schema has no bounds (an HTTP status). */
export const int32 = <T extends z.ZodType>(schema: T): T => schema.meta({ format: 'int32' });

/**
 * False when a URL holds a user name or a password (`https://user:pw@host/`); true for any other
 * text, a URL or not (whether it is one is another rule's to say). Credentials in a URL the API
 * stores would be returned on every read.
 */
export function withoutCredentials(text: string): boolean {
  try {
    const url = new URL(text);
    return url.username === '' && url.password === '';
  } catch {
    return true;
  }
}

export const Severity = z.enum(['error', 'warning', 'info']).meta({ id: 'Severity' });
export type Severity = z.infer<typeof Severity>;

export const SeverityCounts = z
  .object({ error: z.int().min(0), warning: z.int().min(0), info: z.int().min(0) })
  .meta({ id: 'SeverityCounts' });

/** Envelope rule 1: a single resource is `{ data }`. */
export function single<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

export const ListMeta = z
  .object({
    limit: z.int().min(1).max(100),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'ListMeta' });

/** Envelope rule 2: a list is `{ data: [...], meta: { limit, has_more, next_cursor } }`. */
export function list<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: ListMeta });
}

/**
 * An integer of the query string: decimal digits only, so `0x10`, `1e1`, ` 16`, `+16`, `16.0`
 * and an empty value are refused where `Number()` would accept them. A negative integer (`-1`)
 * or a fraction (`1.5`) is read as the number it is, and fails the range or the `int` rule by
 * name; anything else stays a string and fails the number schema by its type.
 */
export function queryInteger<T extends z.ZodNumber>(schema: T) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    if (/^-?[0-9]{1,15}$/.test(value)) return Number(value);
    return /^-?[0-9]{1,15}\.[0-9]{1,15}$/.test(value) && !Number.isInteger(Number(value)) ? Number(value) : value;
  }, schema);
}

/** Common rule 4: `cursor` (opaque) and `limit` (1..100, default 25) on every list. */
export const PageQuery = z.strictObject({
  // Any text: a cursor that is empty, too long or made up is malformed, 400 `pagination.invalid_cursor`.
  cursor: z.string().optional(),
  limit: queryInteger(z.int().min(1).max(100)).default(25),
});

/** Query strings carry booleans as text; only `true` and `false` are accepted. */
export const BooleanText = z.enum(['true', 'false']);

/**
 * A boolean of the query string: `true` and `false` become the booleans, anything else fails the
 * boolean schema by its type. The document says `type: boolean` (a generated client sends
 * `String(value)`, which is `true` or `false`); the SDK's input is a boolean.
 */
export function queryBoolean() {
  return z.preprocess((value: boolean) => ((value as unknown) === 'true' ? true : (value as unknown) === 'false' ? false : value), z.boolean());
}

export const PERIOD_PRESETS = ['7d', '28d', '30d', '90d', '180d', '365d'] as const;
export const PeriodPreset = z.enum(PERIOD_PRESETS).meta({ id: 'PeriodPreset' });
export type PeriodPreset = z.infer<typeof PeriodPreset>;
export const Period = z
  .object({ preset: PeriodPreset, from: PlainDate, to: PlainDate })
  .meta({ id: 'Period' });
export type Period = z.infer<typeof Period>;

export const NoParams = z.strictObject({});
export const NoQuery = z.strictObject({});
/** No body, or an empty JSON object: the bodiless POSTs (crawl launch, rotate-secret, test). */
export const NoBody = z
  .strictObject({})
  .optional()
  .meta({ id: 'EmptyBody', description: 'No body, or an empty JSON object.' });
