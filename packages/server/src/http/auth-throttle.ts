/**
 * Failed authentications counted per client address, in memory (per process), with the rule of
 * `@siteaudit/schema` (recordAuthFailure): past the limit, a failing request answers 429 instead
 * of 401 until the minute ends. A valid token is never counted nor refused here.
 */
import ipaddr from 'ipaddr.js';
import { recordAuthFailure, type AuthFailureCount } from '@siteaudit/schema/rules';
import { ApiError } from './errors.js';

/** Addresses tracked at once; the oldest is forgotten first (a flood of addresses cannot grow memory). */
const MAX_ADDRESSES = 10_000;

/**
 * The counting key of an address: IPv4-mapped IPv6 is its IPv4 address, and IPv6 counts per /64,
 * the block one client usually holds, so rotating within it does not reset the count.
 */
export function addressKey(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) return address ?? 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}

export class AuthFailureThrottle {
  private readonly counts = new Map<string, AuthFailureCount>();

  constructor(private readonly limit: number | null) {}

  /** Counts a failed authentication; the error to answer: 401, or 429 past the limit. */
  failure(address: string | undefined, now: Date, unauthenticated: ApiError): ApiError {
    if (this.limit === null) return unauthenticated;
    const key = addressKey(address);
    const { count, refusal } = recordAuthFailure(this.counts.get(key), this.limit, now);
    this.counts.delete(key);
    if (this.counts.size >= MAX_ADDRESSES) this.counts.delete(this.counts.keys().next().value as string);
    this.counts.set(key, count);
    return refusal ? new ApiError('rate_limited', refusal.extras, refusal.headers) : unauthenticated;
  }
}
