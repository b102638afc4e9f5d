/**
 * Rewrites the two nullable forms zod-to-openapi 9 emits for OpenAPI 3.1 into the form client
 * generators read as nullable (docs/decisions/openapi-generation.md):
 *
 * - a nullable named schema, `allOf: [{ $ref }, { type: [..., 'null'] }]`, which every generator
 *   reads as the referenced type, never null, becomes `anyOf: [{ $ref }, { type: 'null' }]`;
 * - a nullable enum, `{ type: [t, 'null'], enum: [..., null] }`, whose `null` member some
 *   generators cannot type, becomes `anyOf: [{ type: t, enum: [...] }, { type: 'null' }]`.
 *
 * Annotations (description, default, examples…) stay on the outer schema. Applied to the whole
 * document, so a nullable added anywhere in the contract is emitted right without naming it here.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (node: Json | undefined): node is JsonObject => !!node && typeof node === 'object' && !Array.isArray(node);
const NULL_TYPE: JsonObject = { type: 'null' };

/** `['string', 'null']` → `'string'`; null when the list does not hold `null` next to one other type. */
function nonNullType(type: Json | undefined): string | null {
  if (!Array.isArray(type) || type.length !== 2 || !type.includes('null')) return null;
  const other = type.find((t) => t !== 'null');
  return typeof other === 'string' ? other : null;
}

/** `allOf: [{ $ref }, { type: [t, 'null'], ...annotations }]` → `anyOf: [{ $ref }, null]`. */
function nullableRef(schema: JsonObject): JsonObject | null {
  const allOf = schema.allOf;
  if (!Array.isArray(allOf) || allOf.length !== 2) return null;
  const ref = allOf.find((part) => isObject(part) && typeof part.$ref === 'string');
  const rest = allOf.find((part) => part !== ref);
  if (!isObject(ref) || !isObject(rest) || !Array.isArray(rest.type) || !rest.type.includes('null')) return null;
  const { type: _type, ...annotations } = rest;
  const { allOf: _allOf, ...outer } = schema;
  return { ...outer, ...annotations, anyOf: [ref, NULL_TYPE] };
}

/** `{ type: [t, 'null'], enum: [..., null] }` → `anyOf: [{ type: t, enum: [...] }, null]`. */
function nullableEnum(schema: JsonObject): JsonObject | null {
  const type = nonNullType(schema.type);
  if (!type || !Array.isArray(schema.enum) || !schema.enum.includes(null)) return null;
  const { type: _type, enum: values, ...annotations } = schema;
  return { ...annotations, anyOf: [{ type, enum: (values as Json[]).filter((v) => v !== null) }, NULL_TYPE] };
}

/** The document with every nullable reference and nullable enum rewritten, in place. */
export function rewriteNullables<T>(document: T): T {
  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const rewritten = nullableRef(node) ?? nullableEnum(node) ?? node;
    return Object.fromEntries(Object.entries(rewritten).map(([key, value]) => [key, visit(value)]));
  };
  return visit(document as Json) as T;
}
