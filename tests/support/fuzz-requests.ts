/**
 * Requests for the fuzz suite, derived from the contract: valid queries and bodies generated
 * from each operation's zod schemas (through their JSON Schema, `z.toJSONSchema`, since
 * zod-fast-check does not read zod 4), then hostile mutations of every part of the request.
 * A request is built once and sent to each target; `{{name}}` placeholders stand for the
 * target's own values (seeded ids, the site it may audit, its webhook receiver).
 */
import fc from 'fast-check';
import { z } from 'zod';
import { OPERATION_IDS, contract, type ContractEntry, type OperationId } from '@siteaudit/schema';

export interface FuzzRequest {
  op: OperationId;
  method: string;
  /** The path, with `{{project}}`-style placeholders. */
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  /** Raw body text, placeholders included; undefined for none. */
  body?: string;
  /** What was mutated, for the failure message; empty for a request meant to be valid. */
  mutations: string[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonSchema = Record<string, any>;

/** Keys that name members of Object.prototype, plus unicode and control-character ones. */
export const HOSTILE_KEYS = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', '__defineGetter__', 'prototype', 'clé', '名前', '😀', 'a\u0000b', ''];
const HOSTILE_STRINGS = ['\u0000', 'a\u0000b', '', ' ', '😀'.repeat(300), 'x'.repeat(5000), '\u202e\ufeff', '%00', '../..', '<script>', "'; drop table projects; --", 'é\u0301'];
const HOSTILE_VALUES: Json[] = [null, true, 0, -1, -(2 ** 53), 2 ** 53 + 2, 1e308, 0.5, [], {}, [1, 'a'], { constructor: 1 }];
const BAD_INTEGERS = ['0x10', '1e1', ' 16', '+16', '16.0', '', '-1', '0', '101', '99999999999999999999', 'NaN', 'Infinity'];

/** A mutation for about one request part in four; null (left valid) otherwise. */
function sometimes<T>(mutation: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: mutation });
}

/** JSON Schema → arbitrary of values it accepts (mostly: zod refinements are not in it). */
function fromSchema(schema: JsonSchema, defs: Record<string, JsonSchema>, name = ''): fc.Arbitrary<Json> {
  if (schema.$ref) return fromSchema(defs[String(schema.$ref).replace('#/$defs/', '')], defs, name);
  if (schema.anyOf || schema.oneOf) return fc.oneof(...((schema.anyOf ?? schema.oneOf) as JsonSchema[]).map((s) => fromSchema(s, defs, name)));
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as Json[]));
  const type = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (type.length > 1) return fc.oneof(...type.map((t: string) => fromSchema({ ...schema, type: t }, defs, name)));
  switch (type[0]) {
    case 'object': {
      const props = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
      const shape = Object.fromEntries(props.map(([k, s]) => [k, fromSchema(s, defs, k)]));
      const required = (schema.required ?? []) as string[];
      return fc.record(shape, { requiredKeys: required }) as fc.Arbitrary<Json>;
    }
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? min + 3, min + 3);
      return fc.array(fromSchema(schema.items ?? {}, defs, name), { minLength: min, maxLength: max });
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 1000, (schema.minimum ?? 0) + 1000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string':
      return stringFor(schema, name);
    default:
      return fc.oneof(fc.string(), fc.integer(), fc.constant(null));
  }
}

/** Strings, with the target's own values for the fields that must name something real. */
function stringFor(schema: JsonSchema, name: string): fc.Arbitrary<string> {
  if (name === 'url' || name === 'start_url') return fc.oneof({ weight: 4, arbitrary: fc.constant(name === 'url' ? '{{url}}' : '{{site}}') }, { weight: 1, arbitrary: fc.webUrl() });
  if (schema.format === 'uri') return fc.webUrl();
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date') return fc.constantFrom('2026-01-01', '2025-12-31');
  if (schema.format === 'date-time') return fc.constant('2026-01-01T00:00:00Z');
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  const min = schema.minLength ?? 0;
  return fc.string({ minLength: Math.max(min, 1), maxLength: Math.min(schema.maxLength ?? 40, 40), unit: fc.constantFrom('a', 'b', 'z', ' ', 'é', '-', '*', '/', '1') });
}

function jsonSchemaOf(type: z.ZodType): JsonSchema {
  return z.toJSONSchema(type, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

const PARAM_PLACEHOLDERS: Record<string, string> = { project: 'project', campaign: 'campaign', crawl: 'crawl', export: 'export', webhook: 'webhook' };

/** A path parameter: the seeded resource most of the time (a disposable one for deletes). */
function paramArb(op: ContractEntry, name: string): fc.Arbitrary<string> {
  const real = op.method === 'DELETE' ? `{{spare_${name}}}` : `{{${PARAM_PLACEHOLDERS[name]}}}`;
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(real) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom('constructor', '__proto__', 'not-a-uuid', '%00', '%C3%A9', encodeURIComponent('a\u0000b'), '%E0%A4%A') },
  );
}

/** One query: valid, or mutated (unknown and prototype-named keys, NUL, repeated keys, odd numbers). */
function queryArb(op: ContractEntry): fc.Arbitrary<{ entries: [string, string][]; mutations: string[] }> {
  const schema = jsonSchemaOf(op.query);
  const valid = fromSchema(schema, schema.$defs ?? {}).map((value) =>
    Object.entries(value as Record<string, Json>).map(([k, v]) => [k, String(v)] as [string, string]),
  );
  const names = Object.keys(schema.properties ?? {});
  type Entries = [string, string][];
  type Mutation = { name: string; apply: (q: Entries) => Entries };
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.tuple(fc.constantFrom(...HOSTILE_KEYS), fc.constantFrom('1', '', 'x')).map(([k, v]): Mutation => ({ name: `query key ${JSON.stringify(k)}`, apply: (q: Entries) => [...q, [k, v] as [string, string]] })),
    },
    fc.constantFrom(...BAD_INTEGERS).map((v): Mutation => ({ name: `limit=${JSON.stringify(v)}`, apply: (q) => [...q.filter(([k]) => k !== 'limit'), ['limit', v]] })),
    fc.constantFrom(...HOSTILE_STRINGS).map((v): Mutation => ({
      name: `query value ${JSON.stringify(v.slice(0, 20))}`,
      apply: (q) => (names.length ? [...q.filter(([k]) => k !== names[0]), [names[0], v]] : [...q, ['q', v]]),
    })),
    fc.constant<Mutation>({ name: 'repeated query key', apply: (q) => (q.length ? [...q, q[0]] : [...q, ['limit', '1'], ['limit', '2']]) }),
  );
  return fc.tuple(valid, sometimes(fc.array(mutation, { minLength: 1, maxLength: 2 }))).map(([entries, muts]) => ({
    entries: (muts ?? []).reduce((q, m) => m.apply(q), entries),
    mutations: (muts ?? []).map((m) => m.name),
  }));
}

/** A body: valid, or mutated (wrong types, prototype-named keys, NUL, huge numbers, not JSON). */
function bodyArb(op: ContractEntry): fc.Arbitrary<{ text?: string; mutations: string[] }> {
  if (!op.body) return fc.constant({ text: undefined, mutations: [] });
  const schema = jsonSchemaOf(op.body);
  const valid = fromSchema(schema, schema.$defs ?? {});
  type Mutation = { name: string; apply: (body: Json) => string | undefined };
  const withField = (body: Json, key: string, value: Json): Json =>
    body && typeof body === 'object' && !Array.isArray(body) ? { ...body, [key]: value } : { [key]: value };
  // The n-th field the schema knows (whether or not this body has it).
  const fields = Object.keys((schema.$defs ? Object.values(schema.$defs as Record<string, JsonSchema>)[0] : schema).properties ?? { name: {} });
  const field = (n: number) => fields[n % fields.length];
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.tuple(fc.constantFrom(...HOSTILE_VALUES), fc.nat()).map(([v, n]) => ({ name: `${field(n)}: ${JSON.stringify(v)}`, apply: (b: Json) => JSON.stringify(withField(b, field(n), v)) })),
    fc.tuple(fc.constantFrom(...HOSTILE_STRINGS), fc.nat()).map(([v, n]) => ({ name: `${field(n)}: ${JSON.stringify(v.slice(0, 20))}`, apply: (b: Json) => JSON.stringify(withField(b, field(n), v)) })),
    fc.constantFrom(...HOSTILE_KEYS, ...HOSTILE_KEYS.slice(0, 6)).map((k) => ({
      name: `body key ${JSON.stringify(k)}`,
      // Written as text: `{ __proto__: … }` in a literal would set the prototype, not a key.
      apply: (b: Json) => {
        const inner = JSON.stringify(b ?? {});
        const field = `${JSON.stringify(k)}:{"polluted":true}`;
        return inner.startsWith('{') && inner !== '{}' ? `{${field},${inner.slice(1)}` : `{${field}}`;
      },
    })),
    fc.constantFrom('[]', '"text"', '42', 'null', '{', '{"a":1,}', '\u0000', '{"a":"\\ud800"}', '[' .repeat(5000)).map((t) => ({ name: `body ${JSON.stringify(t.slice(0, 20))}`, apply: () => t })),
    fc.constant<Mutation>({ name: 'no body', apply: () => undefined }),
    fc.constant<Mutation>({ name: 'keywords with NUL', apply: (b) => JSON.stringify(withField(b, 'keywords', ['ok', 'a\u0000b'])) }),
  );
  return fc.tuple(valid, sometimes(mutation)).map(([body, m]) => ({ text: m ? m.apply(body) : JSON.stringify(body), mutations: m ? [m.name] : [] }));
}

/** Headers: a good bearer token and JSON mostly; odd authorization, content type, key, language. */
function headersArb(op: ContractEntry): fc.Arbitrary<{ headers: Record<string, string>; mutations: string[] }> {
  const pick = <T>(good: T, bad: readonly T[], name: string) =>
    fc.oneof({ weight: 10, arbitrary: fc.constant({ value: good, bad: '' }) }, { weight: 1, arbitrary: fc.constantFrom(...bad).map((v) => ({ value: v, bad: `${name} ${JSON.stringify(v)}` })) });
  return fc
    .tuple(
      pick<string | null>('Bearer {{token}}', [null, 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'bearer {{token}}', 'Bearer {{token}} extra', 'Bearer sa_0000', 'Bearer {{token}}\t', 'Token {{token}}'], 'authorization'),
      pick<string | null>('application/json', [null, 'text/plain', 'application/json; charset=latin1', 'application/merge-patch+json', 'application/jsonx', 'multipart/form-data; boundary=x', ''], 'content-type'),
      fc.oneof(
        { weight: 10, arbitrary: fc.uuid().map((k) => ({ value: op.idempotency === 'none' ? null : k, bad: '' })) },
        { weight: 1, arbitrary: fc.constantFrom<string | null>(null, '', ' ', 'x'.repeat(300), '"quoted"', 'é').map((v) => ({ value: v, bad: `idempotency-key ${JSON.stringify(v)}` })) },
      ),
      fc.constantFrom<string | null>(null, 'fr', 'en', 'en-US,en;q=0.9', 'de', '*', 'fr;q=0, en;q=0', ';;;', 'x'.repeat(200)),
      fc.constantFrom<string | null>(null, null, null, '*', 'W/"x"', 'garbage'),
    )
    .map(([auth, type, key, language, ifNoneMatch]) => {
      const headers: Record<string, string> = {};
      if (auth.value !== null) headers.authorization = auth.value;
      if (op.body && type.value !== null) headers['content-type'] = type.value;
      if (key.value !== null) headers['idempotency-key'] = key.value;
      if (language !== null) headers['accept-language'] = language;
      if (ifNoneMatch !== null) headers['if-none-match'] = ifNoneMatch;
      return { headers, mutations: [auth.bad, op.body ? type.bad : '', key.bad].filter(Boolean) };
    });
}

/** A request to one operation. */
export function requestArb(id: OperationId): fc.Arbitrary<FuzzRequest> {
  const op = contract[id] as ContractEntry;
  const names = [...op.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);
  return fc
    .tuple(fc.tuple(...names.map((n) => paramArb(op, n))), queryArb(op), bodyArb(op), headersArb(op))
    .map(([params, query, body, headers]) => {
      let i = 0;
      const path = op.path.replace(/:([a-z_]+)/g, () => params[i++]);
      return {
        op: id,
        method: op.method,
        path,
        query: query.entries,
        headers: headers.headers,
        body: body.text,
        mutations: [...query.mutations, ...body.mutations, ...headers.mutations, ...params.filter((p) => !p.startsWith('{{')).map((p) => `param ${p}`)],
      };
    });
}

/** A request to any of the 40 operations, each as likely. */
export const anyRequest: fc.Arbitrary<FuzzRequest> = fc.constantFrom(...OPERATION_IDS).chain(requestArb);

/** Substitutes a target's values for the placeholders. */
export function resolve(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{([a-z_]+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}
