/**
 * The TypeScript sample of each operation with `@siteaudit/client`, generated from the contract
 * (the SDK path, the path parameters, the required query and body fields with example values) and
 * shown beside curl in the reference (`x-codeSamples` of docs/openapi.json). CI type-checks every
 * sample against the packed client (scripts/pack-test.sh), so they cannot drift from the SDK.
 */
import { z } from 'zod';
import type { ContractEntry } from './contract.js';

type Json = { [key: string]: unknown };

const EXAMPLE_ID = '3f0c9a52-8d1e-4b7a-9c2f-6e5d4a3b2c1d';
const EXAMPLE_URL = 'https://www.example.com/';
/** Example values by field name, where the schema's minimum would read oddly (a budget of 1 URL). */
const NAMED: Record<string, unknown> = { max_depth: 5, max_urls: 500, name: 'Example' };
/** An optional field worth showing on an update, which has no required one. */
const UPDATE_EXAMPLE: Record<string, Json> = { updateProject: { name: 'New name' }, updateCampaign: { max_urls: 1000 }, updateWebhook: { active: false } };

/** A `$ref` of the document (`#/$defs/CreateProjectBody`) followed to its schema. */
function deref(schema: Json, root: Json): Json {
  let current = schema;
  for (let i = 0; i < 10 && typeof current.$ref === 'string'; i++) {
    const path = (current.$ref as string).replace(/^#\//, '').split('/');
    current = path.reduce<Json>((node, key) => ((node?.[key] as Json) ?? {}), root);
  }
  return current;
}

/** An example value of a JSON schema: the first enum value, a URL for URL fields, the minimum of a number… */
function example(raw: Json, name: string, root: Json): unknown {
  const schema = deref(raw, root);
  if (name in NAMED) return NAMED[name];
  if (Array.isArray(schema.anyOf)) {
    const first = (schema.anyOf as Json[]).find((s) => s.type !== 'null') ?? (schema.anyOf as Json[])[0];
    return example(first ?? {}, name, root);
  }
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  switch (schema.type) {
    case 'string':
      if (/url$/.test(name) || schema.format === 'uri') return name === 'url' && /webhook/i.test(String(schema.description ?? '')) ? 'https://hooks.example.com/siteaudit' : EXAMPLE_URL;
      if (schema.format === 'uuid') return EXAMPLE_ID;
      if (name === 'keyword') return 'site audit';
      return name === 'name' ? 'Example' : 'example';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'array': {
      const item = example((schema.items as Json) ?? {}, name.replace(/s$/, ''), root);
      return [name === 'keywords' ? 'site audit' : item];
    }
    case 'object':
      return requiredFields(schema, root);
    default:
      return null;
  }
}

function requiredFields(raw: Json, root: Json = raw): Json {
  const schema = deref(raw, root);
  const out: Json = {};
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  for (const key of (schema.required ?? []) as string[]) out[key] = example(properties[key] ?? {}, key, root);
  return out;
}

function jsonSchema(type: z.ZodType | null): Json {
  if (!type) return {};
  return z.toJSONSchema(type, { io: 'input', unrepresentable: 'any' }) as Json;
}

/** The sample's arguments: path parameters, then the required query and body fields. */
function sampleInput(op: ContractEntry): Json {
  const input: Json = {};
  for (const [, name] of op.path.matchAll(/:([a-z_]+)/g)) input[name!] = EXAMPLE_ID;
  Object.assign(input, requiredFields(jsonSchema(op.query as z.ZodType)));
  Object.assign(input, requiredFields(jsonSchema(op.body as z.ZodType | null)));
  Object.assign(input, UPDATE_EXAMPLE[op.id]);
  // A webhook's URL is an https receiver, not a site.
  if (op.sdk[0] === 'webhooks' && typeof input.url === 'string') input.url = 'https://hooks.example.com/siteaudit';
  return input;
}

/** A TypeScript literal: `{ project: '…', keywords: ['site audit'] }`. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${/^[a-z_][a-z0-9_]*$/i.test(k) ? k : `'${k}'`}: ${literal(v)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value);
}

/** The TypeScript sample of one operation. */
export function clientSample(op: ContractEntry): string {
  const input = sampleInput(op);
  // An upload's file is read from disk (the SDK also takes a Blob, a string or a stream).
  const args = op.upload ? `${literal(input).slice(0, -2)}, file: await readFile('access.log.gz'), content_type: 'application/gzip' }` : Object.keys(input).length ? literal(input) : '';
  const call = `client.${op.sdk.join('.')}(${args})`;
  const use =
    op.kind === 'file'
      ? [`const file = await ${call};`, `await writeFile(file.filename ?? 'report', Buffer.from(await file.arrayBuffer()));`]
      : op.kind === 'empty'
        ? [`await ${call};`]
        : op.kind === 'list'
          ? [`const page = await ${call};`, 'console.log(page.data, page.meta.has_more);']
          : [`const result = await ${call};`, 'console.log(result);'];
  return [
    ...(op.kind === 'file' ? ["import { writeFile } from 'fs/promises';"] : []),
    ...(op.upload ? ["import { readFile } from 'fs/promises';"] : []),
    "import { createClient } from '@siteaudit/client';",
    '',
    "const client = createClient({ baseUrl: 'https://api.example.com', token: process.env.SITEAUDIT_TOKEN! });",
    ...use,
    '',
  ].join('\n');
}
