import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { contract, type ContractEntry } from './contract.js';
import { ERRORS, Problem, type ErrorCode } from './errors.js';
import { templatePath } from './operations.js';
import { WEBHOOK_EVENT_PAYLOADS } from './resources/events.js';

const PROBLEM_MEDIA = 'application/problem+json';

/** One tag per SDK group (`op.sdk[0]`). */
const TAGS: Record<string, string> = {
  account: 'The current token, usage and running operations.',
  projects: 'Sites followed over time, and their scorecard.',
  campaigns: 'Reusable crawl configurations with a schedule.',
  crawls: 'Crawl runs with their pages, issues and PageSpeed results.',
  exports: 'PDF and Excel reports of a crawl.',
  positions: 'Rank tracking: tracked keywords and their positions.',
  searchConsole: 'Search Console performance and indexation.',
  webhooks: 'Signed outbound events (owners and admins only).',
};

/** Error statuses each operation can answer, derived from its rules. */
function errorStatuses(op: ContractEntry): number[] {
  const statuses = new Set<number>([401, 403, 422, 429]);
  if (op.path.includes(':')) statuses.add(404);
  if (op.kind === 'list') statuses.add(400);
  if (op.idempotency !== 'none') {
    statuses.add(400);
    statuses.add(409);
  }
  if (op.body) statuses.add(400).add(415);
  if (op.id === 'downloadExport') statuses.add(409).add(410);
  if (['launchCrawl', 'createExport', 'getCrawlIssueSummary', 'listCrawlIssues', 'listCrawlPages', 'getCrawlPageByUrl', 'getCrawlPagespeed', 'pauseKeywords', 'checkKeyword'].includes(op.id)) statuses.add(409);
  return [...statuses].sort();
}

function codesFor(status: number): string {
  return (Object.keys(ERRORS) as ErrorCode[]).filter((c) => ERRORS[c].status === status).join(', ');
}

function describe(op: ContractEntry): string {
  const lines = [
    `Scope: \`${op.scope ?? 'none'}\`. Cost: ${op.cost} rate-limit unit${op.cost > 1 ? 's' : ''}.`,
    `Idempotency-Key: ${op.idempotency}.`,
  ];
  if (op.adminOnly) lines.push('Reserved to team owners and admins.');
  if (op.billingExempt) lines.push('Never refused by billing: allowed on a plan without API write access.');
  return lines.join(' ');
}

/**
 * The document type, named through zod-to-openapi (a dependency) so that the emitted
 * declarations do not import `openapi3-ts`, which consumers may not be able to resolve.
 */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** Builds the OpenAPI 3.1 document from the contract. */
export function buildOpenApiDocument(options: { serverUrl?: string; version?: string } = {}): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A team access token (prefix `sa_`), created by an operator or in the team settings.',
  });

  const rateHeaders = {
    'X-Request-Cost': { description: 'Units this call cost.', schema: { type: 'integer' as const } },
    RateLimit: { description: 'Remaining units and seconds until more, per window (IETF draft syntax).', schema: { type: 'string' as const } },
    'RateLimit-Policy': { description: 'The minute and day envelopes of the team.', schema: { type: 'string' as const } },
    'X-RateLimit-Limit': { description: 'Units per minute.', schema: { type: 'integer' as const } },
    'X-RateLimit-Remaining': { description: 'Units left in the current minute.', schema: { type: 'integer' as const } },
    'X-RateLimit-Reset': { description: 'Seconds until the minute window resets.', schema: { type: 'integer' as const } },
  };

  for (const op of Object.values(contract) as ContractEntry[]) {
    const headers: z.ZodObject[] = [];
    const headerShape: Record<string, z.ZodType> = {
      'Accept-Language': z.enum(['fr', 'en']).optional().meta({ description: 'Language of error titles; default fr.' }),
    };
    if (op.idempotency !== 'none') {
      const key = z.string().min(1).max(255).meta({ description: 'A unique string per logical request.' });
      headerShape['Idempotency-Key'] = op.idempotency === 'required' ? key : key.optional();
    }
    if (op.method === 'GET') headerShape['If-None-Match'] = z.string().optional().meta({ description: 'An ETag from an earlier answer.' });
    headers.push(z.object(headerShape));

    const success =
      op.kind === 'empty'
        ? { description: 'Deleted.' }
        : op.kind === 'file'
          ? {
              description: 'The file, as an attachment.',
              content: {
                'application/pdf': { schema: { type: 'string' as const, format: 'binary' } },
                'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string' as const, format: 'binary' } },
              },
            }
          : {
              description: op.summary,
              headers: { ...rateHeaders, ...(op.method === 'GET' ? { ETag: { schema: { type: 'string' as const } } } : {}), ...(op.id === 'createExport' ? { Location: { description: 'The export to poll.', schema: { type: 'string' as const } } } : {}) },
              content: { 'application/json': { schema: op.response as z.ZodType } },
            };

    const responses: Record<string, unknown> = { [String(op.status)]: success };
    if (op.method === 'GET') responses['304'] = { description: 'Not modified (If-None-Match matched). Costs nothing.' };
    for (const status of errorStatuses(op)) {
      responses[String(status)] = {
        description: `Problem details. Codes: ${codesFor(status)}.`,
        content: { [PROBLEM_MEDIA]: { schema: Problem } },
      };
    }

    const paramsShape = (op.params as z.ZodObject).shape;
    const queryShape = (op.query as z.ZodObject).shape;
    registry.registerPath({
      method: op.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete',
      path: templatePath(op.path),
      operationId: op.id,
      summary: op.summary,
      description: describe(op),
      tags: [op.sdk[0]],
      security: [{ bearerAuth: [] }],
      request: {
        ...(Object.keys(paramsShape).length ? { params: op.params as z.ZodObject } : {}),
        ...(Object.keys(queryShape).length ? { query: op.query as z.ZodObject } : {}),
        headers,
        ...(op.body ? { body: { required: !op.body.safeParse(undefined).success, content: { 'application/json': { schema: op.body } } } } : {}),
      },
      responses: responses as never,
      'x-scope': op.scope,
      'x-cost': op.cost,
      'x-idempotency': op.idempotency,
      ...(op.adminOnly ? { 'x-roles': ['owner', 'admin'] } : {}),
    });
  }

  for (const [type, schema] of Object.entries(WEBHOOK_EVENT_PAYLOADS)) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `event_${type.replace('.', '_')}`,
      summary: `The ${type} event`,
      description:
        'Sent as a POST with JSON body, signed per Standard Webhooks: headers webhook-id (the event id, stable across retries), webhook-timestamp (Unix seconds) and webhook-signature (one `v1,<base64 HMAC-SHA256>` per valid secret).',
      request: { body: { content: { 'application/json': { schema } } } },
      responses: { 200: { description: 'Any 2xx acknowledges the delivery; anything else is retried.' } },
    });
  }

  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Site Audit API',
      version: options.version ?? '1.0.0',
      description:
        'Website audit API: projects, campaigns, crawls, scorecard, rank tracking, Search Console, exports and webhooks. JSON over HTTPS; errors are RFC 9457 problem details with a stable `code`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.serverUrl ?? 'https://api.siteaudit.dev', description: 'Every path starts with /v1.' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    security: [{ bearerAuth: [] }],
  });
}
