import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { contract, type ContractEntry } from './contract.js';
import { clientSample } from './code-samples.js';
import { ERRORS, Problem, type ErrorCode } from './errors.js';
import { operationErrorCodes } from './operation-errors.js';
import { COMMON_HEADERS, CONDITIONAL_HEADERS, OPTIONAL_RATE_HEADERS, RATE_HEADERS, SHARED_STATUSES, problemResponse, ref, registerSharedResponses, type ProblemUnions } from './openapi-responses.js';
import { PROBLEM_FAMILIES } from './problem-families.js';
import { rewriteNullables } from './openapi-nullable.js';
import { toOpenApi30, type OpenApi30Document } from './openapi-30.js';
export { toOpenApi30, type OpenApi30Document } from './openapi-30.js';
import { templatePath } from './operations.js';
import { WEBHOOK_EVENT_PAYLOADS, WebhookEvent } from './resources/events.js';
import { LOG_UPLOAD_TYPES } from './resources/logs.js';
import { NEVER_NOT_MODIFIED } from './rules/conditional-requests.js';

/** One tag per SDK group (`op.sdk[0]`), and one for the webhook events. */
const TAGS: Record<string, string> = {
  account: 'The current token, usage and running operations.',
  projects: 'Sites followed over time, and their scorecard.',
  campaigns: 'Reusable crawl configurations with a schedule.',
  crawls: 'Crawl runs with their pages, issues and PageSpeed results.',
  exports: 'PDF and Excel reports of a crawl.',
  positions: 'Rank tracking: tracked keywords and their positions.',
  searchConsole: 'Search Console performance and indexation.',
  webhooks: 'Signed outbound events (owners and admins only).',
  logs: 'Extension: access-log imports, what search and AI bots fetch, joined with the latest crawl.',
  events: 'The events the server POSTs to webhook receivers, one per event type.',
};

/** The operation's error codes (operation-errors.ts) grouped by status. */
function errorsByStatus(op: ContractEntry): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of operationErrorCodes({ ...op, hasBody: op.body !== null })) {
    const status = ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** What the server sends with each error status of an operation (docs/decisions/rate-limits.md). */
function errorHeaders(op: ContractEntry, status: number): Record<string, { $ref: string }> {
  const replayable: Record<string, { $ref: string }> = op.idempotency !== 'none' ? { 'Idempotent-Replayed': ref('Idempotent-Replayed') } : {};
  // 413 comes from the body limit, before authentication.
  if (status === 413) return COMMON_HEADERS;
  return { ...COMMON_HEADERS, ...OPTIONAL_RATE_HEADERS, ...replayable };
}

/**
 * The media types an upload accepts (LOG_UPLOAD_TYPES), each a binary string,
 * `application/octet-stream` first: a generator that picks the first media type sends the file
 * as bytes, whatever it holds.
 */
function uploadContent(): Record<string, { schema: { type: 'string'; format: 'binary' } }> {
  const types = [...LOG_UPLOAD_TYPES].sort((a, b) => Number(b === 'application/octet-stream') - Number(a === 'application/octet-stream'));
  return Object.fromEntries(types.map((type) => [type, { schema: { type: 'string' as const, format: 'binary' } }]));
}

/** How the server reads an upload (pipeline.ts `readUpload`, the server's logs/parse-file.ts, the mock's http.ts). */
const UPLOAD_BODY =
  'The access log: Combined or Common Log Format, or JSON lines (docs/decisions/logs.md), sent as the body itself, ' +
  'plain text or gzip-compressed. Gzip is recognised by its magic bytes (the file starts with `1f 8b`) and decompressed, ' +
  'whatever the `Content-Type` or `Content-Encoding`; any other file is read as text. The `Content-Type` must be one of ' +
  'the listed media types and `Content-Encoding`, when sent, `identity` or `gzip`: anything else is refused with 415 ' +
  '`log_import.unsupported_media_type`.';

/** How `Accept-Language` is read (rules.ts `pickLanguage`). */
const ACCEPT_LANGUAGE =
  'Language of problem titles and messages, parsed as RFC 9110 language ranges with q-values: the ' +
  'highest-ranked `fr` or `en` range wins, regions ignored (`en-US,en;q=0.9` gives English, `fr-CA` ' +
  'French); ranges naming neither (`de`, `*`) are skipped; without any, French. The chosen language ' +
  'is echoed in `Content-Language`.';

const IDEMPOTENCY_KEY = { type: 'string' as const, minLength: 1, maxLength: 255 };

/**
 * The request headers, declared once (`#/components/parameters`) and referred to by the
 * operations that read them (docs/decisions/openapi-generation.md). Only the required
 * `Idempotency-Key` is required.
 */
const HEADER_PARAMETERS = {
  AcceptLanguage: { name: 'Accept-Language', in: 'header', required: false, description: ACCEPT_LANGUAGE, schema: { type: 'string' }, examples: { english: { value: 'en-US,en;q=0.9' }, french: { value: 'fr' } } },
  IfNoneMatch: { name: 'If-None-Match', in: 'header', required: false, description: 'An ETag from an earlier answer: 304 when it still matches.', schema: { type: 'string' } },
  IdempotencyKey: { name: 'Idempotency-Key', in: 'header', required: false, description: 'A unique string per logical request: a retry with the same key does not repeat the operation.', schema: IDEMPOTENCY_KEY },
  IdempotencyKeyRequired: { name: 'Idempotency-Key', in: 'header', required: true, description: 'A unique string per logical request, required: a retry with the same key does not repeat the operation.', schema: IDEMPOTENCY_KEY },
  ContentEncoding: { name: 'Content-Encoding', in: 'header', required: false, description: '`identity` (the default) or `gzip`; any other value is refused with 415. Informative only: a gzip file is recognised by its magic bytes, with or without this header.', schema: { type: 'string', enum: ['gzip', 'identity'] as string[] } },
} as const;

/** The optional request headers an operation reads, by component name (`#/components/parameters`). */
function optionalHeaders(op: ContractEntry): (keyof typeof HEADER_PARAMETERS)[] {
  return [
    'AcceptLanguage',
    ...(op.idempotency === 'accepted' ? (['IdempotencyKey'] as const) : []),
    ...(op.upload ? (['ContentEncoding'] as const) : []),
    ...(op.method === 'GET' && !NEVER_NOT_MODIFIED.has(op.id) ? (['IfNoneMatch'] as const) : []),
  ];
}

function describe(op: ContractEntry, docsUrl: string): string {
  const optional = optionalHeaders(op).map((name) => `\`${HEADER_PARAMETERS[name].name}\``);
  const lines = [
    // The extension's group in the served reference, whose description says what it adds.
    ...(op.extension ? [`**Extension** beyond the specification ([${op.sdk[0]}](${docsUrl}#tag/${op.sdk[0]})).`] : []),
    `Scope: \`${op.scope ?? 'none'}\`. Cost: ${op.cost} rate-limit unit${op.cost > 1 ? 's' : ''}.`,
    `Idempotency-Key: ${op.idempotency}.`,
    `Optional request headers (\`#/components/parameters\`): ${optional.join(', ')}.`,
  ];
  if (op.adminOnly) lines.push('Reserved to team owners and admins.');
  if (op.billingExempt) lines.push('Never refused by billing: allowed on a plan without API write access.');
  if (op.upload) lines.push('The body is the file itself, streamed as sent: plain text, or gzip (recognised by its magic bytes, whatever its type or `Content-Encoding`), up to the plan\'s `logs.import_max_bytes`.');
  return lines.join(' ');
}

/**
 * Descriptions without the repository paths of decision records (`(docs/decisions/logs.md)`):
 * they mean nothing in a generated client's doc comments, and the served documentation has no
 * such page. Every description of the document, whoever wrote it in the contract.
 */
function withoutRepositoryPaths<T>(document: T): T {
  const path = /docs\/decisions\/[\w-]+\.md/;
  const strip = (text: string) => text.replace(new RegExp(` ?\\(${path.source}\\)`, 'g'), '').replace(new RegExp(`${path.source}`, 'g'), 'its decision record');
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'description' && typeof v === 'string' ? strip(v) : visit(v)]));
  };
  return visit(document) as T;
}

/**
 * Success bodies as named components: `{ data: Project }` is `ProjectResponse`, `{ data: Project[],
 * meta }` is `ProjectList`. Inline, generators for other languages name each after its operation
 * and status (openapi-generator's `GetProject200Response`, `UpdateProject200Response`…): one type
 * per operation for one shape. A body whose shape differs from its name's is named after its
 * operation (`<OperationId>Response`).
 */
function withNamedEnvelopes<T extends OpenApiDocument>(document: T): T {
  const schemas = (document.components ??= {}).schemas ??= {};
  const refName = (ref: unknown) => (typeof ref === 'string' ? ref.slice(ref.lastIndexOf('/') + 1) : null);
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }> }>)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const content = response.content?.['application/json'];
        const schema = content?.schema;
        if (!/^2/.test(status) || !schema || schema.$ref) continue;
        const data = (schema.properties as Record<string, Record<string, unknown>> | undefined)?.data;
        const single = refName(data?.$ref);
        const listed = data?.type === 'array' ? refName((data.items as Record<string, unknown> | undefined)?.$ref) : null;
        if (!single && !listed) continue;
        const same = (name: string) => !schemas[name] || JSON.stringify(schemas[name]) === JSON.stringify(schema);
        const own = `${operation.operationId![0].toUpperCase()}${operation.operationId!.slice(1)}Response`;
        const name = [single ? `${single}Response` : `${listed}List`, own].find(same);
        if (!name) throw new Error(`No free component name for the ${status} body of ${operation.operationId}`);
        schemas[name] = schema as never;
        content.schema = { $ref: `#/components/schemas/${name}` };
      }
    }
  }
  return document;
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/**
 * `format: int32` on every integer whose bounds keep it within 32 bits (a `limit`, a score, a
 * problem's `status`) and that states no format of its own: a generated Java, C# or Go client
 * then gives it a 32-bit type. Integers that can pass 2^31 say `int64` in the contract (`int64()`,
 * common.ts); the others keep no format, the generator's default. Documentation only.
 */
function withIntegerFormats<T>(document: T): T {
  const bounded = (node: Record<string, unknown>) =>
    typeof node.minimum === 'number' && typeof node.maximum === 'number' && node.minimum >= INT32.min && node.maximum <= INT32.max;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const schema = node as Record<string, unknown>;
    const integer = schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'));
    const formatted = integer && schema.format === undefined && bounded(schema) ? { ...schema, format: 'int32' } : schema;
    return Object.fromEntries(Object.entries(formatted).map(([k, v]) => [k, visit(v)]));
  };
  return visit(document) as T;
}

/**
 * The document type, named through zod-to-openapi (a dependency) so that the emitted
 * declarations do not import `openapi3-ts`, which consumers may not be able to resolve.
 */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;


/** Where the catalogue's codes are described when no other base is given (docs/decisions/api-reference.md). */
export const DEFAULT_DOCS_URL = 'https://siteaudit.dev/docs';

export interface OpenApiOptions {
  /** The API's URL, without `/v1` (default `https://api.siteaudit.dev`). */
  serverUrl?: string;
  version?: string;
  /** The documentation base: problem types and code links are `<docsUrl>/errors#<code>`. */
  docsUrl?: string;
}

/** Builds the OpenAPI 3.1 document from the contract. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const docsUrl = options.docsUrl ?? DEFAULT_DOCS_URL;
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A team access token (prefix `sa_`), created by an operator or in the team settings.',
  });
  /** The unions of problem families the answers name (openapi-responses.ts `problemSchema`). */
  const problemUnions: ProblemUnions = new Map();
  registerSharedResponses(registry, docsUrl, problemUnions);
  for (const [name, parameter] of Object.entries(HEADER_PARAMETERS)) registry.registerComponent('parameters', name, parameter as never);
  /** The header parameters of each operation, by component name, added to its `parameters` once generated. */
  const headerParameters = new Map<string, string[]>();

  for (const op of Object.values(contract) as ContractEntry[]) {
    const conditional = op.method === 'GET' && !NEVER_NOT_MODIFIED.has(op.id);
    // Only a required header is an operation parameter: generators turn a declared optional
    // header into an argument every call must pass (typed-openapi's `header: {}`, orval's
    // `headers`). The optional ones are components, named in the description.
    const headers = op.idempotency === 'required' ? ['IdempotencyKeyRequired'] : [];
    headerParameters.set(op.id, headers);

    const replayable = op.idempotency !== 'none' ? { 'Idempotent-Replayed': ref('Idempotent-Replayed') } : {};
    const successHeaders = { ...COMMON_HEADERS, ...RATE_HEADERS, ...replayable };
    const location = op.id === 'createExport' || op.id === 'launchCrawl' || op.id === 'createLogImport' ? { Location: ref('Location') } : {};
    const success =
      op.kind === 'empty'
        ? { description: 'Deleted.', headers: successHeaders }
        : op.kind === 'file'
          ? {
              description: 'The file, as an attachment.',
              headers: { ...successHeaders, ...CONDITIONAL_HEADERS, 'Content-Disposition': ref('Content-Disposition') },
              content: {
                'application/pdf': { schema: { type: 'string' as const, format: 'binary' } },
                'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string' as const, format: 'binary' } },
              },
            }
          : {
              description: op.summary,
              headers: { ...successHeaders, ...(op.method === 'GET' ? CONDITIONAL_HEADERS : {}), ...location },
              content: { 'application/json': { schema: op.response as z.ZodType } },
            };

    const responses: Record<string, unknown> = { [String(op.status)]: success };
    if (conditional) {
      responses['304'] = {
        description: 'Not modified: If-None-Match matched. Costs nothing.',
        headers: { ...COMMON_HEADERS, ...RATE_HEADERS, ...CONDITIONAL_HEADERS },
      };
    }
    for (const [status, codes] of errorsByStatus(op)) {
      const shared = SHARED_STATUSES[status];
      responses[String(status)] = shared ? { $ref: `#/components/responses/${shared}` } : problemResponse(codes, docsUrl, errorHeaders(op, status), problemUnions);
    }
    responses['431'] = { $ref: '#/components/responses/HeadersTooLarge' };
    const sorted = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));

    const paramsShape = (op.params as z.ZodObject).shape;
    const queryShape = (op.query as z.ZodObject).shape;
    registry.registerPath({
      method: op.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete',
      path: templatePath(op.path),
      operationId: op.id,
      summary: op.summary,
      description: describe(op, docsUrl),
      tags: [op.sdk[0]],
      security: [{ bearerAuth: [] }],
      request: {
        ...(Object.keys(paramsShape).length ? { params: op.params as z.ZodObject } : {}),
        ...(Object.keys(queryShape).length ? { query: op.query as z.ZodObject } : {}),
        ...(op.body ? { body: { required: !op.body.safeParse(undefined).success, content: { 'application/json': { schema: op.body } } } } : {}),
        ...(op.upload ? { body: { required: true, description: UPLOAD_BODY, content: uploadContent() } } : {}),
      },
      responses: sorted as never,
      'x-scope': op.scope,
      'x-cost': op.cost,
      'x-idempotency': op.idempotency,
      // Named, not declared (above): the 3.0 rendering declares them (openapi-30.ts).
      'x-optional-headers': optionalHeaders(op),
      'x-error-codes': operationErrorCodes({ ...op, hasBody: op.body !== null }),
      ...(op.adminOnly ? { 'x-roles': ['owner', 'admin'] } : {}),
      ...(op.extension ? { 'x-extension': op.extension } : {}),
      // Shown beside the generated curl by the reference at /docs (and by Redoc, ReadMe…).
      'x-codeSamples': [{ lang: 'TypeScript', label: '@siteaudit/client', source: clientSample(op) }],
    });
  }

  for (const [type, schema] of Object.entries(WEBHOOK_EVENT_PAYLOADS)) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      // camelCase as every operation's: `crawl.completed` → `eventCrawlCompleted`.
      operationId: `event${type.split(/[._]/).map((word) => word[0].toUpperCase() + word.slice(1)).join('')}`,
      // Tagged so references list them under a named group (untagged, Scalar's group is `webhook/undefined/`).
      tags: ['events'],
      summary: `The ${type} event`,
      description:
        'Sent as a POST with JSON body, signed per Standard Webhooks: headers webhook-id (the event id, stable across retries), webhook-timestamp (Unix seconds) and webhook-signature (one `v1,<base64 HMAC-SHA256>` per valid secret).',
      request: { body: { content: { 'application/json': { schema } } } },
      responses: { 200: { description: 'Any 2xx acknowledges the delivery; anything else is retried.' } },
    });
  }

  // Named schemas no operation names through zod: each problem family (shared answers refer to
  // them as JSON), and the union of the webhook events (each event's own webhook names its payload).
  // `Problem` too: no answer names it (each names a family), but it is the type of any problem.
  const named = [Problem, ...Object.values(PROBLEM_FAMILIES), WebhookEvent].map((schema) => ({ type: 'schema' as const, schema }));
  for (const [name, union] of problemUnions) registry.registerComponent('schemas', name, union as never);
  const generator = new OpenApiGeneratorV31([...registry.definitions, ...named]);
  const document = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Site Audit API',
      version: options.version ?? '1.0.0',
      description:
        'Website audit API: projects, campaigns, crawls, scorecard, rank tracking, Search Console, exports and webhooks. JSON over HTTPS; errors are RFC 9457 problem details with a stable `code`, ' +
        `each described at its \`type\` URL, \`${docsUrl}/errors#<code>\` ([the errors page](${docsUrl}/errors)). A method a path does not answer gets 405 \`method_not_allowed\` with \`Allow\` ` +
        '(`#/components/responses/MethodNotAllowed`). Every answer carries `X-Request-Id`, `Content-Language` and `Vary: Authorization, Accept-Language, Accept-Encoding`; a JSON answer of 1 KiB or more is gzipped for a caller whose `Accept-Encoding` accepts it. ' +
        'A web page of any origin may call the API (CORS: `Access-Control-Allow-Origin: *` and `Access-Control-Expose-Headers` on every answer, an `OPTIONS` preflight answered 204 without a token); it authenticates with its bearer token, never a cookie. ' +
        `An issue's \`name\` is a check of the audit catalogue: what it finds, why it matters and how to fix it are on [the checks page](${docsUrl}/checks).`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.serverUrl ?? 'https://api.siteaudit.dev', description: 'Every path starts with /v1.' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    security: [{ bearerAuth: [] }],
  });
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of ['get', 'post', 'patch', 'delete'] as const) {
      const operation = item[method];
      const names = operation?.operationId ? headerParameters.get(operation.operationId) : undefined;
      if (operation && names) operation.parameters = [...(operation.parameters ?? []), ...names.map((name) => ({ $ref: `#/components/parameters/${name}` }))];
    }
  }
  return withIntegerFormats(withoutRepositoryPaths(rewriteNullables(withNamedEnvelopes(document))));
}

/** The OpenAPI 3.0.3 rendering of the same document (openapi-30.ts), for generators that read only 3.0. */
export function buildOpenApi30Document(options: OpenApiOptions = {}): OpenApi30Document {
  return toOpenApi30(buildOpenApiDocument(options));
}
