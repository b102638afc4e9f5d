/**
 * The OpenAPI 3.0.3 rendering of the 3.1 document (docs/openapi-3.0.json, `GET /openapi-3.0.json`),
 * for the generators that read only 3.0: progenitor (Rust), AutoRest, oapi-codegen (Go), older
 * openapi-generator and NSwag setups (docs/decisions/openapi-generation.md). A conversion of the
 * finished 3.1 document rather than a second zod-to-openapi pass: its nullable rewrites, problem
 * families and descriptions are then the same in both, and only what 3.0 cannot say changes:
 *
 * - `type: [t, 'null']` → `type: t, nullable: true` (an enum gains its `null` member, which 3.0.3
 *   requires for null to be valid);
 * - `anyOf: [{ $ref }, { type: 'null' }]` → `allOf: [{ $ref }], nullable: true`, the form
 *   generators read as a nullable reference (zod-to-openapi's own 3.0 form);
 *   `anyOf: [{ type: t, enum }, { type: 'null' }]` → `type: t, enum: [..., null], nullable: true`;
 * - a property that is always null (`{ type: 'null' }`, `PageChange.severity`) → the type of the
 *   same property in the other members of its union, `nullable: true`, `enum: [null]`;
 * - `const` → a one-value `enum`; a schema's `examples` → `example` (its first);
 *   `exclusiveMinimum: n` → `minimum: n, exclusiveMinimum: true` (and maximum);
 * - `webhooks` → `x-webhooks`; `info.license.identifier` → `info.license.url`.
 *
 * One addition: each operation's optional request headers (`x-optional-headers`: Accept-Language,
 * Idempotency-Key, If-None-Match, Content-Encoding) are declared as its parameters. The 3.1
 * document only names them, since TypeScript generators make a declared optional header an
 * argument of every call; the generators of typed languages this rendering serves make them
 * optional arguments (openapi-generator's `idempotency_key=None`, NSwag's `string? idempotencyKey`),
 * without which a client could not send them.
 *
 * Anything else 3.0 cannot hold (another type list) throws, so a new form in the contract is
 * noticed by `npm run openapi` rather than written wrong.
 */
import type { OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The 3.0 document type, named through zod-to-openapi (as openapi.ts names the 3.1 one). */
export type OpenApi30Document = ReturnType<OpenApiGeneratorV3['generateDocument']>;

const isObject = (node: Json | undefined): node is JsonObject => !!node && typeof node === 'object' && !Array.isArray(node);
const isNullType = (node: Json | undefined): boolean => isObject(node) && node.type === 'null';
const SPDX = 'https://spdx.org/licenses/';

/** The `type` a schema states, `$ref`s followed, null members of a union set aside. */
function typeOf(schema: Json | undefined, components: Record<string, JsonObject>): string | null {
  if (!isObject(schema)) return null;
  if (typeof schema.$ref === 'string') return typeOf(components[schema.$ref.split('/').pop() as string], components);
  if (typeof schema.type === 'string' && schema.type !== 'null') return schema.type;
  if (Array.isArray(schema.type)) return (schema.type.find((t) => t !== 'null') as string | undefined) ?? null;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const parts = schema[key];
    if (Array.isArray(parts)) for (const part of parts) if (!isNullType(part)) return typeOf(part, components);
  }
  return null;
}

/**
 * For each `schema.property` that is always null, the type the same property has in the other
 * members of a `oneOf` that holds the schema (`PageChange.severity` → IssueChange's `string`).
 */
function alwaysNullTypes(components: Record<string, JsonObject>): Map<string, string> {
  const found = new Map<string, string>();
  const unions = Object.values(components).map((s) => s.oneOf).filter(Array.isArray) as Json[][];
  for (const members of unions) {
    const names = members.filter(isObject).map((m) => (typeof m.$ref === 'string' ? m.$ref.split('/').pop() as string : null)).filter((n): n is string => !!n);
    for (const name of names) {
      for (const [property, schema] of Object.entries((components[name]?.properties ?? {}) as JsonObject)) {
        if (!isNullType(schema)) continue;
        const sibling = names.map((other) => typeOf(((components[other]?.properties ?? {}) as JsonObject)[property], components)).find((t) => t);
        if (sibling) found.set(`${name}.${property}`, sibling);
      }
    }
  }
  return found;
}

/** One schema and everything under it in 3.0 form. `alwaysNull` is the type for a `{ type: 'null' }` schema. */
function schema30(node: Json, alwaysNull: string | null = null, at = ''): Json {
  if (!isObject(node)) return node;
  let s: JsonObject = { ...node };
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(s[key])) s[key] = (s[key] as Json[]).map((part, i) => (isNullType(part) ? part : schema30(part, null, `${at}/${key}/${i}`)));
  for (const key of ['items', 'additionalProperties', 'not'] as const) if (isObject(s[key])) s[key] = schema30(s[key], null, `${at}/${key}`);
  if (isObject(s.properties)) s.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, schema30(v, null, `${at}/properties/${k}`)]));

  // A union with null: nullable, the union gone when one member is left.
  for (const key of ['anyOf', 'oneOf'] as const) {
    const parts = s[key];
    if (!Array.isArray(parts) || !parts.some(isNullType)) continue;
    const rest = parts.filter((p) => !isNullType(p));
    const { [key]: _parts, ...outer } = s;
    if (rest.length !== 1) {
      s = { ...outer, [key]: rest, nullable: true };
      continue;
    }
    const only = rest[0] as JsonObject;
    if (typeof only.$ref === 'string') s = { ...outer, allOf: [only], nullable: true };
    else s = { ...only, ...outer, nullable: true, ...(Array.isArray(only.enum) ? { enum: [...only.enum, null] } : {}) };
  }
  if (Array.isArray(s.type)) {
    const others = s.type.filter((t) => t !== 'null');
    if (others.length !== 1) throw new Error(`OpenAPI 3.0 has no type list: ${at} ${JSON.stringify(s.type)}`);
    const nullable = s.type.includes('null');
    s = { ...s, type: others[0], ...(nullable ? { nullable: true } : {}) };
    if (nullable && Array.isArray(s.enum) && !s.enum.includes(null)) s.enum = [...s.enum, null];
  }
  if (s.type === 'null') {
    if (!alwaysNull) throw new Error(`OpenAPI 3.0 has no null type, and no union names ${at}'s type`);
    s = { ...s, type: alwaysNull, nullable: true, enum: [null] };
  }
  if ('const' in s) {
    const { const: value, ...rest } = s;
    s = { ...rest, enum: [value] };
  }
  if (Array.isArray(s.examples)) {
    const { examples, ...rest } = s;
    s = { ...rest, ...(examples.length ? { example: examples[0] } : {}) };
  }
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof s[exclusive] === 'number') s = { ...s, [bound]: s[exclusive], [exclusive]: true };
  }
  return s;
}

/** Every `schema` of parameters, headers and media types under `node`, converted. */
function withSchemas30(node: Json, at: string): Json {
  if (Array.isArray(node)) return node.map((item, i) => withSchemas30(item, `${at}/${i}`));
  if (!isObject(node)) return node;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'schema' ? schema30(value, null, `${at}/schema`) : withSchemas30(value, `${at}/${key}`)]));
}

/** Each operation's `x-optional-headers` as references to its parameters, after those it declares. */
function withOptionalHeaders(paths: Json): Json {
  if (!isObject(paths)) return paths;
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      isObject(item)
        ? Object.fromEntries(
            Object.entries(item).map(([method, operation]) => {
              if (!isObject(operation) || !Array.isArray(operation['x-optional-headers'])) return [method, operation];
              const declared = (operation.parameters ?? []) as Json[];
              const added = operation['x-optional-headers'].map((name) => ({ $ref: `#/components/parameters/${name as string}` }));
              return [method, { ...operation, parameters: [...declared, ...added] }];
            }),
          )
        : item,
    ]),
  );
}

/** The 3.0.3 rendering of a 3.1 document built by `buildOpenApiDocument`. */
export function toOpenApi30(document: unknown): OpenApi30Document {
  const source = JSON.parse(JSON.stringify(document)) as JsonObject;
  const { webhooks, openapi: _version, info, components, paths, ...rest } = source;
  const componentSchemas = ((components as JsonObject | undefined)?.schemas ?? {}) as Record<string, JsonObject>;
  const alwaysNull = alwaysNullTypes(componentSchemas);
  const schemas = Object.fromEntries(
    Object.entries(componentSchemas).map(([name, schema]) => {
      const properties = isObject(schema.properties)
        ? Object.fromEntries(Object.entries(schema.properties).map(([p, v]) => [p, isNullType(v) ? schema30(v, alwaysNull.get(`${name}.${p}`) ?? null, `${name}/${p}`) : v]))
        : undefined;
      return [name, schema30(properties ? { ...schema, properties } : schema, null, `#/components/schemas/${name}`)];
    }),
  );
  const { license, ...about } = info as JsonObject;
  const { identifier, ...licence } = (license ?? {}) as JsonObject;
  const converted: JsonObject = {
    openapi: '3.0.3',
    info: {
      ...about,
      description: `${about.description as string} This is the OpenAPI 3.0.3 rendering of the 3.1 document (\`/openapi.json\`), for generators that read only 3.0 and those of typed languages: a nullable value is \`nullable: true\`, the webhook events are under \`x-webhooks\`, and each operation declares its optional request headers as parameters.`,
      ...(license ? { license: { ...licence, ...(typeof identifier === 'string' && !licence.url ? { url: `${SPDX}${identifier}.html` } : {}) } } : {}),
    },
    ...(withSchemas30(rest, '#') as JsonObject),
    paths: withSchemas30(withOptionalHeaders(paths), '#/paths'),
    components: { ...(withSchemas30({ ...(components as JsonObject), schemas: {} }, '#/components') as JsonObject), schemas },
    ...(webhooks ? { 'x-webhooks': withSchemas30(webhooks, '#/webhooks') } : {}),
  };
  return converted as unknown as OpenApi30Document;
}
