/**
 * How a crawl ends early, in one place: the caller's signal, or a block the crawl detects
 * (firewall, the start URL refused by the address guard). Both abort one controller, so requests
 * in flight are cancelled and what is recorded stays. Protection pages are counted here too, since
 * a run of them is what stops a crawl as blocked by a firewall.
 */
import type { BlockedReason } from '../crawl-types.js';

export class EarlyEnd {
  private readonly controller = new AbortController();
  private readonly callerSignal: AbortSignal | undefined;
  /** Why the crawl could not proceed; the first reason wins. */
  blocked: BlockedReason | null = null;
  /** Protection pages met (internal pages and checked external links). */
  protectionOccurrences = 0;
  private consecutiveProtection = 0;

  constructor(callerSignal: AbortSignal | undefined, private readonly maxConsecutiveProtection: number) {
    this.callerSignal = callerSignal;
    if (callerSignal) {
      if (callerSignal.aborted) this.controller.abort();
      else callerSignal.addEventListener('abort', () => this.controller.abort(), { once: true });
    }
  }

  /** Aborted when the caller stops the crawl or the crawl stops itself. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when the caller's signal stopped the crawl (not a block the crawl found). */
  get callerAborted(): boolean {
    return this.callerSignal?.aborted === true;
  }

  /** Ends the crawl early: requests in flight are cancelled, what is recorded stays. */
  stop(reason: BlockedReason): void {
    this.blocked ??= reason;
    this.controller.abort();
  }

  /** A protection page instead of an internal page; on the start URL's chain it blocks the crawl at once. */
  protectionPage(onStartChain: boolean): void {
    this.protectionOccurrences++;
    this.consecutiveProtection++;
    if (onStartChain || this.consecutiveProtection >= this.maxConsecutiveProtection) this.stop('firewall');
  }

  /** A challenge met on an external link: counted, never a block. */
  externalProtection(): void {
    this.protectionOccurrences++;
  }

  /** An internal page answered as itself: the run of protection pages is broken. */
  ordinaryPage(): void {
    this.consecutiveProtection = 0;
  }
}
