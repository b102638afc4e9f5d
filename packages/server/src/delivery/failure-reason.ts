/**
 * Why an attempt failed, as the stable `error_reason` of the delivery log
 * (docs/decisions/webhook-delivery.md, "error_reason"): precise enough for a subscriber to act on
 * (trust a CA, open a port, fix a DNS name), from the error undici or node:tls raised. The
 * low-level code goes to the server log beside it, never to the API.
 */
import type { DeliveryErrorReason as Reason } from '@siteaudit/schema';
import { AddressRefusedError } from '../net/address-guard.js';

/** The reasons an attempt can fail; `subscription_disabled` is set by the runner, not here. */
export type AttemptFailureReason = Exclude<Reason, 'subscription_disabled'>;

export interface AttemptFailure {
  reason: AttemptFailureReason;
  /** The error's own code (`DEPTH_ZERO_SELF_SIGNED_CERT`, `ECONNREFUSED`, `ENOTFOUND`), for the log. */
  code: string | null;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** OpenSSL's verification codes (node:tls `error.code`) for a chain that leads to no trusted root. */
const UNTRUSTED_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
]);
const EXPIRED_CODES = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);

function codeOf(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

/** The reason for an error thrown by the request; `timedOut` when our own deadline aborted it. */
export function classifyFailure(error: unknown, timedOut: boolean): AttemptFailure {
  if (error instanceof AddressRefusedError) {
    // No address means the name did not resolve: nothing was refused, the receiver is unreachable.
    if (!error.address) return { reason: 'dns_failure', code: codeOf(error.cause) ?? 'ENOTFOUND' };
    return { reason: 'refused_address', code: null };
  }
  const code = codeOf(error);
  if (timedOut || (code && TIMEOUT_CODES.has(code))) return { reason: 'timeout', code };
  if (code === null) return { reason: 'connection_failed', code };
  if (UNTRUSTED_CODES.has(code)) return { reason: 'tls_certificate_untrusted', code };
  if (EXPIRED_CODES.has(code)) return { reason: 'tls_certificate_expired', code };
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return { reason: 'tls_hostname_mismatch', code };
  // A plain http server on an https URL answers `wrong version number`; also protocol or cipher mismatches.
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code === 'EPROTO') return { reason: 'tls_handshake_failed', code };
  if (code === 'ECONNREFUSED') return { reason: 'connection_refused', code };
  if (DNS_CODES.has(code)) return { reason: 'dns_failure', code };
  // Reset, closed before an answer (UND_ERR_SOCKET), host or network unreachable.
  return { reason: 'connection_failed', code };
}
