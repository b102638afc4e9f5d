/**
 * Checks recorded answers against docs/openapi.json, as a validating proxy would, but stricter:
 * the status must be documented for the operation, the body must match its schema with no
 * property the schema does not name, and every header must be documented for that answer.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { contract } from '@siteaudit/schema';
import { matchOperation, allowedMethods } from '@siteaudit/schema/rules';

/** One request of the suite and what came back. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  /** The body as text when JSON, else null (a file, no body). */
  text: string | null;
}

/** CORS's, on every answer and stated in the document's description, as Vary is (docs/decisions/cors.md). */
const CORS_RESPONSE_HEADERS = ['access-control-allow-origin', 'access-control-expose-headers', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age'];

/**
 * HTTP's own headers, not the API's: set by Node or the transport on every answer (Date,
 * Connection, Keep-Alive, Content-Length, Transfer-Encoding, Content-Encoding), Content-Type (checked against the
 * documented media types instead) and Vary (always `Authorization, Accept-Language, Accept-Encoding`, stated in
 * the document's description: OpenAPI has no place for a header of every answer).
 */
export const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-encoding', 'content-type', 'vary', ...CORS_RESPONSE_HEADERS]);

/** A fetch that records every exchange in `into` (bodies read from a clone, so callers are unaffected). */
export function recordingFetch(into: Promise<Exchange>[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const copy = response.clone();
    const type = copy.headers.get('content-type') ?? '';
    into.push(
      (async () => ({
        method: request.method,
        path: new URL(request.url).pathname,
        status: copy.status,
        headers: Object.fromEntries(copy.headers),
        text: /json/.test(type) ? await copy.text() : (await copy.arrayBuffer(), null),
      }))(),
    );
    return response;
  };
}

type Json = Record<string, any>;

/** Every object schema that lists its properties refuses others, but not inside `allOf` (each part sees only its own). */
function closeObjects(node: unknown, inAllOf = false): void {
  if (Array.isArray(node)) {
    for (const item of node) closeObjects(item, inAllOf);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  if (schema.properties && schema.additionalProperties === undefined && !inAllOf) schema.additionalProperties = false;
  for (const [key, value] of Object.entries(schema)) closeObjects(value, key === 'allOf');
}

export class OpenApiChecker {
  private readonly doc: Json;
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(path = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url))) {
    this.doc = JSON.parse(readFileSync(path, 'utf8')) as Json;
    closeObjects(this.doc.components.schemas);
    closeObjects(this.doc.paths);
    closeObjects(this.doc.components.responses);
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: this.doc.components }, 'openapi');
  }

  private resolve(node: Json): Json {
    return typeof node.$ref === 'string' ? (node.$ref.slice(2).split('/').reduce((at: Json, key: string) => at[key], this.doc) as Json) : node;
  }

  private schemaFor(pointer: string, schema: Json): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      // `#/components/...` inside the schema point into the document registered as `openapi`.
      const rebased = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/')) as Json;
      validate = this.ajv.compile(rebased);
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  /** What is wrong with `value` as the named component schema (`WebhookEvent`…); empty when it matches. */
  checkComponent(name: string, value: unknown): string[] {
    const validate = this.schemaFor(`#/components/schemas/${name}`, { $ref: `#/components/schemas/${name}` });
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${name}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
  }

  /** What is wrong with one exchange; empty when the document describes it. */
  check(x: Exchange): string[] {
    const where = `${x.method} ${x.path} → ${x.status}`;
    // A CORS preflight is the Fetch protocol's, before any operation: stated in the description.
    if (x.method === 'OPTIONS' && x.status === 204) return [];
    const found = matchOperation(x.method === 'HEAD' ? 'GET' : x.method, x.path);
    let response: Json | undefined;
    let pointer: string;
    if (found) {
      const op = contract[found.id];
      const operation = this.doc.paths[op.path.replace(/:([a-z_]+)/g, '{$1}')]?.[op.method.toLowerCase()] as Json | undefined;
      if (!operation) return [`${where}: ${found.id} is not in the document`];
      response = operation.responses[String(x.status)] as Json | undefined;
      pointer = `${found.id}/${x.status}`;
      if (!response) return [`${where}: status ${x.status} is not documented for ${found.id}`];
    } else if (x.path.startsWith('/v1/') && x.status === 405 && allowedMethods(x.path).length > 0) {
      response = { $ref: '#/components/responses/MethodNotAllowed' };
      pointer = 'MethodNotAllowed';
    } else {
      return [`${where}: no operation of the document answers this request`];
    }
    response = this.resolve(response);
    const problems: string[] = [];

    const declared = new Map<string, Json>();
    for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) declared.set(name.toLowerCase(), this.resolve(header as Json));
    for (const [name, value] of Object.entries(x.headers)) {
      if (TRANSPORT_HEADERS.has(name)) continue;
      const header = declared.get(name);
      if (!header) problems.push(`${where}: header ${name} is not documented`);
      else if (header.schema?.type === 'integer' && !/^\d+$/.test(value)) problems.push(`${where}: header ${name} is not an integer: ${value}`);
    }
    for (const [name, header] of declared) if (header.required && !(name in x.headers)) problems.push(`${where}: required header ${name} missing`);

    const content = response.content as Json | undefined;
    const type = x.headers['content-type']?.split(';')[0].trim();
    if (!content) {
      if (type) problems.push(`${where}: a ${type} body where none is documented`);
      return problems;
    }
    const media = type ? (content[type] as Json | undefined) : undefined;
    if (!media) return [...problems, `${where}: media type ${type ?? '(none)'} is not documented (${Object.keys(content).join(', ')})`];
    // A HEAD answer has the GET's headers and no body.
    if (x.text === null || x.method === 'HEAD') return problems;
    const validate = this.schemaFor(`${pointer}/${type}`, media.schema as Json);
    if (!validate(JSON.parse(x.text))) {
      for (const e of validate.errors ?? []) problems.push(`${where}: body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
    }
    return problems;
  }
}
