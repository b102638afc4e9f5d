import { OPERATIONS, OPERATION_IDS, type OperationId } from '@siteaudit/schema/operations';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';
import type { SdkPaths } from '../src/types.js';

/**
 * The public placements, pinned: `SdkPaths` is read from the operations table, so the compiler
 * checks this copy against the table's types, and the test against its runtime values.
 */
const EXPECTED: { [K in OperationId]: SdkPaths[K] } = {
  getMe: ['account', 'me'],
  getUsage: ['account', 'usage'],
  listOperations: ['account', 'operations'],
  listProjects: ['projects', 'list'],
  createProject: ['projects', 'create'],
  getProject: ['projects', 'get'],
  updateProject: ['projects', 'update'],
  deleteProject: ['projects', 'delete'],
  getScorecard: ['projects', 'scorecard'],
  listCampaigns: ['campaigns', 'list'],
  createCampaign: ['campaigns', 'create'],
  getCampaign: ['campaigns', 'get'],
  updateCampaign: ['campaigns', 'update'],
  deleteCampaign: ['campaigns', 'delete'],
  launchCrawl: ['crawls', 'launch'],
  listCrawls: ['crawls', 'list'],
  getCrawl: ['crawls', 'get'],
  listCrawlIssues: ['crawls', 'issues', 'list'],
  getCrawlIssueSummary: ['crawls', 'issues', 'summary'],
  listCrawlPages: ['crawls', 'pages', 'list'],
  getCrawlPageByUrl: ['crawls', 'pages', 'byUrl'],
  listCrawlPageInlinks: ['crawls', 'pages', 'inlinks'],
  getCrawlPagespeed: ['crawls', 'pagespeed'],
  listCrawlChanges: ['crawls', 'changes', 'list'],
  getCrawlChangesSummary: ['crawls', 'changes', 'summary'],
  listCrawlRecommendations: ['crawls', 'recommendations'],
  createExport: ['exports', 'create'],
  getExport: ['exports', 'get'],
  downloadExport: ['exports', 'download'],
  getPositions: ['positions', 'get'],
  trackKeywords: ['positions', 'track'],
  untrackKeywords: ['positions', 'untrack'],
  pauseKeywords: ['positions', 'pause'],
  resumeKeywords: ['positions', 'resume'],
  checkKeyword: ['positions', 'check'],
  getSearchConsole: ['searchConsole', 'get'],
  listWebhooks: ['webhooks', 'list'],
  createWebhook: ['webhooks', 'create'],
  getWebhook: ['webhooks', 'get'],
  updateWebhook: ['webhooks', 'update'],
  deleteWebhook: ['webhooks', 'delete'],
  rotateWebhookSecret: ['webhooks', 'rotateSecret'],
  testWebhook: ['webhooks', 'test'],
  listWebhookDeliveries: ['webhooks', 'deliveries'],
  createLogImport: ['logs', 'imports', 'create'],
  listLogImports: ['logs', 'imports', 'list'],
  getLogImport: ['logs', 'imports', 'get'],
  deleteLogImport: ['logs', 'imports', 'delete'],
  getLogInsights: ['logs', 'insights'],
  listLogUrls: ['logs', 'urls'],
  listLogDays: ['logs', 'days'],
  listLogFindings: ['logs', 'findings'],
};

describe('SDK placement', () => {
  it('the typed placements match the operations table', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...OPERATION_IDS].sort());
    for (const id of OPERATION_IDS) expect(OPERATIONS[id].sdk, id).toEqual(EXPECTED[id]);
  });

  it('the client exposes exactly one method per operation, plus its helpers', () => {
    const client = createClient({ baseUrl: 'https://api.test', token: 't', fetch: async () => new Response(null, { status: 204 }) });
    const found: string[] = [];
    const walk = (node: Record<string, unknown>, path: string[]) => {
      for (const [key, value] of Object.entries(node)) {
        if (typeof value === 'function') found.push([...path, key].join('.'));
        else if (value && typeof value === 'object') walk(value as Record<string, unknown>, [...path, key]);
      }
    };
    walk(client as unknown as Record<string, unknown>, []);
    const expected = OPERATION_IDS.map((id) => OPERATIONS[id].sdk.join('.'));
    expect(found.sort()).toEqual([...expected, 'request', 'waitForCrawl', 'waitForExport'].sort());
    expect(client.lastRateLimit).toBeUndefined();
  });
});
