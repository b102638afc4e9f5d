import { describe, expect, it } from 'vitest';
import { allowedMethods, decodePathParams, matchOperation } from '../../src/rules/routing.js';

describe('routing', () => {
  it('matches a method and a path to its operation and path parameters', () => {
    expect(matchOperation('GET', '/v1/projects/abc')).toEqual({ id: 'getProject', params: { project: 'abc' } });
    expect(matchOperation('GET', '/v1/projects/abc/')).toEqual({ id: 'getProject', params: { project: 'abc' } });
    expect(matchOperation('GET', '/v1/crawls/c1/issues/summary')).toEqual({ id: 'getCrawlIssueSummary', params: { crawl: 'c1' } });
    expect(matchOperation('POST', '/v1/projects')).toEqual({ id: 'createProject', params: {} });
    expect(matchOperation('PUT', '/v1/projects')).toBeNull();
    expect(matchOperation('GET', '/v1/projects/a/b/c')).toBeNull();
    expect(matchOperation('GET', '/v1/projects//')).toBeNull();
  });

  it('names the methods a path allows', () => {
    expect(allowedMethods('/v1/projects/')).toEqual(['GET', 'HEAD', 'POST']);
    expect(allowedMethods('/v1/webhooks/00000000-0000-4000-8000-000000000000/test')).toEqual(['POST']);
    expect(allowedMethods('/v1/nowhere')).toEqual([]);
  });
});

describe('path parameters', () => {
  it('are percent-decoded; a malformed one stays as sent instead of throwing', () => {
    const decoded = decodePathParams({ project: 'a%20b', crawl: '%E0%A4%A' });
    expect({ ...decoded }).toEqual({ project: 'a b', crawl: '%E0%A4%A' });
    expect(Object.getPrototypeOf(decoded)).toBeNull();
  });
});
