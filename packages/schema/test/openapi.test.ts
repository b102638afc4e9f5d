/** The OpenAPI document: committed copy up to date, every operation and event present, named schemas by $ref. */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, LogImport as LogImportSchema, WEBHOOK_EVENTS, contract, templatePath, type ContractEntry } from '../src/index.js';
import { OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { buildOpenApi30Document, buildOpenApiDocument } from '../src/openapi.js';
import { rewriteNullables } from '../src/openapi-nullable.js';
import { toOpenApi30 } from '../src/openapi-30.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const committedPath = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));
const committed30Path = fileURLToPath(new URL('../../../docs/openapi-3.0.json', import.meta.url));
// Through JSON, as `npm run openapi` writes it: undefined members disappear.
const built = JSON.parse(JSON.stringify(buildOpenApiDocument())) as JsonObject;
const paths = built.paths as Record<string, Record<string, JsonObject>>;
const webhooks = built.webhooks as Record<string, Record<string, JsonObject>>;
const schemas = (built.components as JsonObject).schemas as Record<string, JsonObject>;
const entries = Object.values(contract) as ContractEntry[];

describe('docs/openapi.json', () => {
  it('is up to date with the contract', () => {
    const committed = JSON.parse(readFileSync(committedPath, 'utf8')) as unknown;
    expect(
      isDeepStrictEqual(committed, built),
      'docs/openapi.json is stale: run `npm run openapi` and commit the result',
    ).toBe(true);
  });

  it('is OpenAPI 3.1', () => {
    expect(built.openapi).toBe('3.1.0');
  });
});

/** An operation's parameters, each `$ref` resolved. */
function parametersOf(operation: JsonObject): JsonObject[] {
  const components = (built.components as JsonObject).parameters as Record<string, JsonObject>;
  return ((operation.parameters ?? []) as JsonObject[]).map((p) => (typeof p.$ref === 'string' ? components[p.$ref.split('/').pop() as string] : p));
}

describe('operations', () => {
  it('lists exactly the operations of the contract', () => {
    const documented = Object.values(paths).flatMap((item) => Object.values(item).map((o) => o.operationId));
    expect(documented.sort()).toEqual(entries.map((e) => e.id).sort());
  });

  it.each(entries.map((e) => [e.id, e] as const))('%s carries its operationId, x-scope, x-cost and x-idempotency', (id, entry) => {
    const operation = paths[templatePath(entry.path)]?.[entry.method.toLowerCase()];
    expect(operation, `${entry.method} ${entry.path}`).toBeDefined();
    expect(operation).toMatchObject({
      operationId: id,
      'x-scope': entry.scope,
      'x-cost': entry.cost,
      'x-idempotency': entry.idempotency,
    });
    expect(Object.keys(operation.responses as JsonObject)).toContain(String(entry.status));
  });

  it('requires the Idempotency-Key header exactly where the contract does', () => {
    for (const entry of entries) {
      const operation = paths[templatePath(entry.path)][entry.method.toLowerCase()];
      const header = parametersOf(operation).find((p) => p.name === 'Idempotency-Key');
      // An optional header is no parameter of the operation (generators would make it an argument).
      if (entry.idempotency === 'required') expect(header?.required, entry.id).toBe(true);
      else expect(header, entry.id).toBeUndefined();
    }
  });
});

/** Every subschema under `node`, with the path that leads to it. */
function* subschemas(node: Json, at: string): Generator<[string, JsonObject]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* subschemas(item, `${at}/${i}`);
  } else if (node && typeof node === 'object') {
    yield [at, node];
    for (const [k, v] of Object.entries(node)) yield* subschemas(v, `${at}/${k}`);
  }
}

/** A schema without its documentation: what makes two schemas the same type. */
function shape(node: Json): Json {
  if (Array.isArray(node)) return node.map(shape);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).filter(([k]) => k !== 'description').map(([k, v]) => [k, shape(v)]));
}

describe('components', () => {
  it('names every resource, request body and webhook event', () => {
    const expected = [
      'Project', 'Campaign', 'Schedule', 'Crawl', 'StagePlan', 'IssueOccurrence', 'IssueSummary', 'CrawledPage',
      'CrawledPageWithIssues', 'PageSpeedResult', 'Scorecard', 'ScorecardPillar', 'Positions', 'SearchConsole', 'Export',
      'Webhook', 'WebhookWithSecret', 'WebhookDelivery', 'Me', 'Usage', 'Operation', 'Problem', 'FieldError', 'ListMeta',
      'CreateProjectBody', 'UpdateProjectBody', 'CreateCampaignBody', 'UpdateCampaignBody', 'CreateExportBody',
      'TrackKeywordsBody', 'KeywordsBody', 'CheckKeywordBody', 'CreateWebhookBody', 'UpdateWebhookBody',
    ];
    for (const name of expected) expect(Object.keys(schemas), name).toContain(name);
  });

  it('refers to named schemas with $ref instead of repeating them', () => {
    const named = Object.entries(schemas).map(([name, s]) => [name, JSON.stringify(shape(s))] as const);
    const copies: string[] = [];
    const documents: [string, Json][] = [
      ['#/paths', built.paths],
      ['#/webhooks', built.webhooks],
      ...Object.entries(schemas).map(([name, s]) => [`#/components/schemas/${name}`, s] as [string, Json]),
    ];
    for (const [root, document] of documents) {
      for (const [at, node] of subschemas(document, root)) {
        if (at.startsWith('#/components/schemas/') && at.split('/').length === 4) continue;
        const json = JSON.stringify(shape(node));
        for (const [name, definition] of named) if (json === definition) copies.push(`${at} repeats ${name}`);
      }
    }
    expect(copies).toEqual([]);
  });

  it('names every JSON success body: <Resource>Response for one, <Resource>List for a page of them', () => {
    const bodies: string[] = [];
    for (const item of Object.values(paths)) {
      for (const operation of Object.values(item as Record<string, JsonObject>)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, JsonObject>)) {
          const schema = ((response.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined)?.schema as JsonObject | undefined;
          if (status.startsWith('2') && schema) bodies.push(`${operation.operationId} ${String(schema.$ref)}`);
        }
      }
    }
    expect(bodies).toContain('listProjects #/components/schemas/ProjectList');
    expect(bodies).toContain('createProject #/components/schemas/ProjectResponse');
    expect(bodies).toContain('getProject #/components/schemas/ProjectResponse');
    expect(bodies.filter((body) => !/ #\/components\/schemas\/\w+(Response|List)$/.test(body))).toEqual([]);
    expect(schemas.ProjectList).toMatchObject({ properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Project' } }, meta: { $ref: '#/components/schemas/ListMeta' } } });
  });

  it('answers single resources by $ref and errors with the problem family of their codes', () => {
    const getProject = paths['/v1/projects/{project}'].get.responses as Record<string, JsonObject>;
    const ok = (getProject['200'].content as JsonObject)['application/json'] as JsonObject;
    expect(ok.schema).toEqual({ $ref: '#/components/schemas/ProjectResponse' });
    expect(schemas.ProjectResponse).toMatchObject({ properties: { data: { $ref: '#/components/schemas/Project' } }, required: ['data'] });
    const body = (status: string) => ((getProject[status].content as JsonObject)['application/problem+json'] as JsonObject).schema;
    expect(body('404')).toEqual({ $ref: '#/components/schemas/NotFoundProblem' });
    expect(body('403')).toEqual({ $ref: '#/components/schemas/MissingScopeOrPlanProblem' });
    expect(body('422')).toEqual({ $ref: '#/components/schemas/ValidationProblem' });
  });
});

/** A problem family: `Problem`'s properties, narrowed, in one object (no `allOf` that redeclares them). */
function family(name: string): JsonObject {
  const schema = schemas[name];
  expect(schema.allOf, name).toBeUndefined();
  expect(Object.keys(schema.properties as JsonObject), name).toEqual(expect.arrayContaining(Object.keys(schemas.Problem.properties as JsonObject)));
  return schema;
}

/** The problem families, without the unions of them (`…OrPlanProblem`) nor the base. */
const familyNames = () => Object.keys(schemas).filter((name) => name.endsWith('Problem') && name !== 'Problem' && !schemas[name].oneOf);

describe('problem families', () => {
  it.each([
    ['ValidationProblem', ['validation_failed'], ['errors']],
    ['RateLimitedProblem', ['rate_limited'], ['window', 'retry_after', 'upgrade_to']],
    ['MissingScopeProblem', ['token.missing_scope'], ['required_scopes']],
    ['PlanProblem', ['api.not_in_plan', 'api.write_not_in_plan', 'plan_limit.exports.excel', 'keywords.project_limit'], ['upgrade_to']],
  ])('%s narrows Problem to its codes and requires the fields sent with them', (name, codes, fields) => {
    const narrowing = family(name);
    expect(((narrowing.properties as JsonObject).code as JsonObject).enum).toEqual(expect.arrayContaining(codes));
    expect(narrowing.required).toEqual(expect.arrayContaining(['code', ...fields]));
  });

  it('puts every catalogue code in exactly one family, and every problem answer refers to families', () => {
    const families = familyNames();
    const owners = new Map<string, string[]>();
    for (const name of families) {
      for (const code of ((family(name).properties as JsonObject).code as JsonObject).enum as string[]) owners.set(code, [...(owners.get(code) ?? []), name]);
    }
    for (const code of ERROR_CODES) expect(owners.get(code), code).toHaveLength(1);
    const bodies: [string, JsonObject][] = [];
    const responses = (built.components as JsonObject).responses as Record<string, JsonObject>;
    for (const [name, response] of Object.entries(responses)) bodies.push([name, response]);
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, JsonObject>)) bodies.push([`${method} ${path} ${status}`, response]);
      }
    }
    for (const [at, response] of bodies) {
      const problem = (response.content as JsonObject | undefined)?.['application/problem+json'] as JsonObject | undefined;
      if (!problem) continue;
      const schema = problem.schema as JsonObject;
      const named = schemas[(schema.$ref as string).split('/').pop() as string];
      const refs = (named.oneOf as JsonObject[] | undefined) ?? [schema];
      for (const ref of refs) expect(families.map((f) => `#/components/schemas/${f}`), at).toContain(ref.$ref);
    }
  });

  it('types status as an integer (a one-value enum), as Problem does', () => {
    expect((schemas.Problem.properties as JsonObject).status).toMatchObject({ type: 'integer', minimum: 400, maximum: 599 });
    for (const name of familyNames()) {
      const status = (family(name).properties as JsonObject).status as JsonObject;
      expect(status.type, name).toBe('integer');
      expect(status.enum, name).toHaveLength(1);
    }
  });

  it('names each union of families once, with a discriminator on code mapping every code of its members', () => {
    const unions = Object.entries(schemas).filter(([, s]) => s.oneOf && (s.oneOf as JsonObject[]).every((o) => /Problem$/.test(String(o.$ref))));
    expect(unions.map(([name]) => name).sort()).toEqual(['MissingScopeOrPlanOrForbiddenProblem', 'MissingScopeOrPlanProblem', 'ValidationOrUnprocessableProblem']);
    for (const [name, union] of unions) {
      const discriminator = union.discriminator as { propertyName: string; mapping: Record<string, string> };
      expect(discriminator.propertyName, name).toBe('code');
      const expected = (union.oneOf as JsonObject[]).flatMap((o) => {
        const member = schemas[(o.$ref as string).split('/').pop() as string];
        return (((member.properties as JsonObject).code as JsonObject).enum as string[]).map((code) => [code, o.$ref]);
      });
      expect(Object.entries(discriminator.mapping).sort(), name).toEqual(expected.sort());
    }
    // No inline union of problems is left in an answer.
    const inline = [...subschemas(built.paths, '#/paths')].filter(([, node]) => Array.isArray(node.oneOf)).map(([at]) => at);
    expect(inline).toEqual([]);
  });
});

describe('generator-friendly forms', () => {
  it('writes a nullable reference as anyOf with null, never allOf with a type list', () => {
    const wrong: string[] = [];
    let nullableRefs = 0;
    for (const [at, node] of subschemas(built, '#')) {
      const parts = (node.allOf ?? []) as JsonObject[];
      if (parts.some((p) => typeof p?.$ref === 'string') && parts.some((p) => Array.isArray(p?.type))) wrong.push(at);
      const any = node.anyOf as JsonObject[] | undefined;
      if (any?.some((p) => p.$ref) && any.some((p) => p.type === 'null')) nullableRefs++;
    }
    expect(wrong).toEqual([]);
    expect(nullableRefs).toBeGreaterThanOrEqual(0);
  });

  it('rewrites what zod-to-openapi makes of a nullable named schema and a nullable enum, wherever the contract has them', () => {
    const Level = z.enum(['low', 'high']).meta({ id: 'Level' });
    const Sample = z.object({ level: Level.nullable(), mode: z.enum(['a', 'b']).nullable() }).meta({ id: 'Sample' });
    const raw = new OpenApiGeneratorV31([{ type: 'schema', schema: Level }, { type: 'schema', schema: Sample }]).generateComponents() as { components: { schemas: Record<string, JsonObject> } };
    const before = raw.components.schemas.Sample.properties as JsonObject;
    // What the generator writes, and why the rewrite exists.
    expect(before.level).toMatchObject({ allOf: [{ $ref: '#/components/schemas/Level' }, { type: ['string', 'null'] }] });
    const after = (rewriteNullables(raw).components.schemas.Sample.properties ?? {}) as JsonObject;
    expect(after.level).toEqual({ anyOf: [{ $ref: '#/components/schemas/Level' }, { type: 'null' }] });
    expect(after.mode).toEqual({ anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] });
  });

  it('declares the request headers once, as components; an operation lists only the required Idempotency-Key', () => {
    for (const entry of entries) {
      const operation = paths[templatePath(entry.path)][entry.method.toLowerCase()];
      const inline = ((operation.parameters ?? []) as JsonObject[]).filter((p) => p.in === 'header');
      expect(inline, entry.id).toEqual([]);
      const headers = parametersOf(operation).filter((p) => p.in === 'header');
      expect(headers.map((h) => [h.name, h.required]), entry.id).toEqual(entry.idempotency === 'required' ? [['Idempotency-Key', true]] : []);
      expect(operation.description, entry.id).toContain('`Accept-Language`');
    }
    const components = (built.components as JsonObject).parameters as Record<string, JsonObject>;
    expect(Object.values(components).map((p) => p.name).sort()).toEqual(['Accept-Language', 'Content-Encoding', 'Idempotency-Key', 'Idempotency-Key', 'If-None-Match']);
  });

  it('names no schema as orval names the result type of an operation (`<OperationId>Result`)', () => {
    const pascal = (id: string) => id[0].toUpperCase() + id.slice(1);
    const taken = entries.map((e) => `${pascal(e.id)}Result`);
    expect(Object.keys(schemas).filter((name) => taken.includes(name))).toEqual([]);
  });

  it('keeps null out of enums', () => {
    const wrong = [...subschemas(built, '#')].filter(([at, node]) => !at.includes('/examples') && Array.isArray(node.enum) && node.enum.includes(null)).map(([at]) => at);
    expect(wrong).toEqual([]);
  });

  it('says int64 on the integers that can pass 2^31, int32 on bounded ones, and keeps them numbers', () => {
    const property = (schema: string, ...path: string[]) => path.reduce((at, key) => ((at.properties as JsonObject)[key] as JsonObject), schemas[schema]);
    for (const [schema, ...path] of [
      ['LogImport', 'size_bytes'], ['LogImport', 'bot_hits'], ['LogImport', 'human_hits'], ['LogUrlStat', 'bytes'], ['LogUrlStat', 'hits'],
      ['Export', 'size_bytes'], ['CrawledPage', 'size_bytes'], ['LogInsights', 'hits', 'bots'],
    ]) {
      expect(property(schema, ...path).format, `${schema}.${path.join('.')}`).toBe('int64');
    }
    expect(((property('LogImport', 'truncation').format as unknown) ?? null)).toBeNull();
    expect((((schemas.LogImport.properties as JsonObject).truncation as JsonObject).properties as JsonObject).inflated_bytes).toMatchObject({ format: 'int64' });
    expect(property('ListMeta', 'limit')).toMatchObject({ type: 'integer', format: 'int32' });
    expect(property('CrawledPage', 'status_code')).toMatchObject({ format: 'int32' });
    // Documentation only: the contract still parses and infers plain numbers.
    const size: number | null = LogImportSchema.shape.size_bytes.parse(3_000_000_000);
    expect(size).toBe(3_000_000_000);
  });

  it('lists the upload as bytes first and says how gzip is recognised', () => {
    const body = paths['/v1/projects/{project}/log-imports'].post.requestBody as JsonObject;
    expect(Object.keys(body.content as JsonObject)[0]).toBe('application/octet-stream');
    expect(body.description).toContain('magic bytes');
  });

  it('types the boolean filters of a query as booleans', () => {
    const internal = (paths['/v1/crawls/{crawl}/pages'].get.parameters as JsonObject[]).find((p) => p.name === 'internal');
    expect(internal?.schema).toMatchObject({ type: 'boolean' });
  });

  it('links no repository path in a description', () => {
    const found = [...subschemas(built, '#')].filter(([, node]) => typeof node.description === 'string' && /docs\/decisions\//.test(node.description)).map(([at]) => at);
    expect(found).toEqual([]);
  });
});

describe('webhooks', () => {
  it('documents every event type, webhook.test included', () => {
    expect(Object.keys(webhooks).sort()).toEqual([...WEBHOOK_EVENTS, 'webhook.test'].sort());
  });

  it('names the webhooks in camelCase, as the operations, and the crawl events share one data schema', () => {
    for (const [type, item] of Object.entries(webhooks)) expect(item.post.operationId, type).toMatch(/^event[A-Z][A-Za-z]+$/);
    expect(webhooks['crawl.completed'].post.operationId).toBe('eventCrawlCompleted');
    for (const name of ['CrawlCompletedEvent', 'CrawlFailedEvent', 'CrawlStoppedEvent']) {
      expect((schemas[name].properties as JsonObject).data, name).toEqual({ $ref: '#/components/schemas/CrawlEventData' });
    }
  });

  it.each([...WEBHOOK_EVENTS, 'webhook.test'])('%s is a POST whose body is a named event schema', (type) => {
    const body = (webhooks[type].post.requestBody as JsonObject).content as JsonObject;
    const schema = (body['application/json'] as JsonObject).schema as JsonObject;
    expect(schema.$ref).toMatch(/^#\/components\/schemas\/\w+Event$/);
    const event = schemas[(schema.$ref as string).split('/').pop() as string];
    expect(event.required).toEqual(expect.arrayContaining(['id', 'type', 'created_at', 'data']));
    // zod-to-openapi writes a literal as a one-value enum.
    expect((event.properties as JsonObject).type).toMatchObject({ enum: [type] });
  });

  it('names the union of every event payload WebhookEvent, told apart by type', () => {
    const union = schemas.WebhookEvent;
    const refs = (union.oneOf as JsonObject[]).map((o) => o.$ref);
    expect(union.discriminator).toMatchObject({ propertyName: 'type' });
    const mapping = (union.discriminator as JsonObject).mapping as Record<string, string>;
    expect(Object.keys(mapping).sort()).toEqual([...WEBHOOK_EVENTS, 'webhook.test'].sort());
    for (const type of Object.keys(mapping)) {
      const body = ((webhooks[type].post.requestBody as JsonObject).content as JsonObject)['application/json'] as JsonObject;
      expect(mapping[type]).toBe((body.schema as JsonObject).$ref);
      expect(refs).toContain(mapping[type]);
    }
  });
});

describe('docs/openapi-3.0.json', () => {
  const built30 = JSON.parse(JSON.stringify(buildOpenApi30Document())) as JsonObject;
  const schemas30 = (built30.components as JsonObject).schemas as Record<string, JsonObject>;

  it('is up to date with the contract, and OpenAPI 3.0.3', () => {
    const committed = JSON.parse(readFileSync(committed30Path, 'utf8')) as unknown;
    expect(isDeepStrictEqual(committed, built30), 'docs/openapi-3.0.json is stale: run `npm run openapi` and commit the result').toBe(true);
    expect(built30.openapi).toBe('3.0.3');
  });

  it('holds nothing 3.0 cannot say: no type list, no null type, no const, webhooks as x-webhooks', () => {
    const wrong = [...subschemas(built30, '#')].filter(([at, node]) => !at.includes('/examples/') && (Array.isArray(node.type) || node.type === 'null' || 'const' in node)).map(([at]) => at);
    expect(wrong).toEqual([]);
    expect(built30.webhooks).toBeUndefined();
    expect(Object.keys(built30['x-webhooks'] as JsonObject).sort()).toEqual(Object.keys(webhooks).sort());
    expect((built30.info as JsonObject).license).toEqual({ name: 'MIT', url: 'https://spdx.org/licenses/MIT.html' });
  });

  it('says nullable as 3.0 does, the same paths and schemas as the 3.1 document', () => {
    expect(Object.keys(built30.paths as JsonObject)).toEqual(Object.keys(paths));
    expect(Object.keys(schemas30)).toEqual(Object.keys(schemas));
    expect((schemas30.Export.properties as JsonObject).size_bytes).toEqual({ type: 'integer', format: 'int64', nullable: true });
    // An always-null property takes the type of its union sibling's.
    expect((schemas30.PageChange.properties as JsonObject).severity).toMatchObject({ type: 'string', nullable: true, enum: [null] });
  });

  it('declares each operation\'s optional request headers as its parameters (the 3.1 document only names them)', () => {
    const paths30 = built30.paths as Record<string, Record<string, JsonObject>>;
    const components30 = (built30.components as JsonObject).parameters as Record<string, JsonObject>;
    for (const entry of entries) {
      const refs = ((paths30[templatePath(entry.path)][entry.method.toLowerCase()].parameters ?? []) as JsonObject[]).map((p) => String(p.$ref ?? p.name));
      const headers = refs.filter((r) => r.startsWith('#/components/parameters/')).map((r) => components30[r.split('/').pop()!]);
      const expected = [
        ...(entry.idempotency === 'required' ? [['Idempotency-Key', true]] : []),
        ['Accept-Language', false],
        ...(entry.idempotency === 'accepted' ? [['Idempotency-Key', false]] : []),
        ...(entry.upload ? [['Content-Encoding', false]] : []),
      ];
      const names = headers.map((h) => [h.name, h.required]);
      expect(names.filter(([name]) => name !== 'If-None-Match'), entry.id).toEqual(expected);
      // If-None-Match on the reads that answer 304, as the 3.1 document's 304 answers say.
      const conditional = '304' in ((paths[templatePath(entry.path)][entry.method.toLowerCase()] as JsonObject).responses as JsonObject);
      expect(names.some(([name]) => name === 'If-None-Match'), entry.id).toBe(conditional);
    }
  });

  it('converts every 3.1 form the contract may produce', () => {
    const source = {
      openapi: '3.1.0',
      info: { title: 't', version: '1', license: { name: 'MIT', identifier: 'MIT' } },
      paths: {},
      components: {
        schemas: {
          Level: { type: 'string', enum: ['low', 'high'] },
          Sample: {
            type: 'object',
            properties: {
              level: { anyOf: [{ $ref: '#/components/schemas/Level' }, { type: 'null' }], description: 'd' },
              mode: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] },
              count: { type: ['integer', 'null'], exclusiveMinimum: 0, examples: [3] },
              kind: { const: 'x', type: 'string' },
            },
          },
        },
      },
    };
    const properties = (toOpenApi30(source) as unknown as { components: { schemas: { Sample: { properties: JsonObject } } } }).components.schemas.Sample.properties;
    expect(properties.level).toEqual({ allOf: [{ $ref: '#/components/schemas/Level' }], nullable: true, description: 'd' });
    expect(properties.mode).toEqual({ type: 'string', enum: ['a', 'b', null], nullable: true });
    expect(properties.count).toEqual({ type: 'integer', nullable: true, minimum: 0, exclusiveMinimum: true, example: 3 });
    expect(properties.kind).toEqual({ type: 'string', enum: ['x'] });
  });

  // openapi-spec-validator (Python) where it is installed; redocly lints both in `npm run lint`.
  const python = spawnSync('python3', ['-c', 'import openapi_spec_validator'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!python)('is valid for openapi-spec-validator', () => {
    const script = 'import sys\nfrom openapi_spec_validator import validate\nfrom openapi_spec_validator.readers import read_from_filename\nvalidate(read_from_filename(sys.argv[1])[0])\nprint("valid")';
    expect(execFileSync('python3', ['-c', script, committed30Path], { encoding: 'utf8' }).trim()).toBe('valid');
  }, 60_000);
});
