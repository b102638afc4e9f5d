import { describe, expect, it } from 'vitest';
import { EarlyEnd } from '../../../src/crawler/run/early-end.js';

describe('crawl control', () => {
  it('aborts on the caller signal, and says it was the caller', () => {
    const caller = new AbortController();
    const control = new EarlyEnd(caller.signal, 5);
    expect(control.signal.aborted).toBe(false);
    caller.abort();
    expect(control.signal.aborted).toBe(true);
    expect(control.callerAborted).toBe(true);
    expect(control.blocked).toBeNull();
  });

  it('starts aborted when the caller signal already is', () => {
    const caller = new AbortController();
    caller.abort();
    expect(new EarlyEnd(caller.signal, 5).signal.aborted).toBe(true);
  });

  it('keeps the first reason a crawl was stopped for', () => {
    const control = new EarlyEnd(undefined, 5);
    control.stop('address_refused');
    control.stop('firewall');
    expect(control.blocked).toBe('address_refused');
    expect(control.signal.aborted).toBe(true);
    expect(control.callerAborted).toBe(false);
  });

  it('stops as firewall at once on the start chain, or after a run of protection pages elsewhere', () => {
    const onStart = new EarlyEnd(undefined, 3);
    onStart.protectionPage(true);
    expect(onStart.blocked).toBe('firewall');

    const run = new EarlyEnd(undefined, 3);
    run.protectionPage(false);
    run.protectionPage(false);
    run.ordinaryPage();
    run.protectionPage(false);
    run.protectionPage(false);
    expect(run.blocked).toBeNull();
    run.externalProtection();
    run.protectionPage(false);
    expect(run.blocked).toBe('firewall');
    expect(run.protectionOccurrences).toBe(6);
  });
});
