/**
 * Google service-account authentication (OAuth 2.0 JWT bearer grant, RFC 7523): a JWT signed
 * RS256 with the account's private key is exchanged at the token endpoint for an access token.
 * node:crypto signs it; no Google SDK is needed for two HTTP calls. Tokens are cached per
 * account and scope until shortly before they expire.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { ProviderError, requestJson, type FetchLike } from './http.js';

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Google accepts assertions valid for at most one hour. */
const ASSERTION_SECONDS = 3600;
/** Renew a cached token this long before Google says it expires. */
const EXPIRY_MARGIN_MS = 60_000;

/** The fields of a service-account key file (the JSON downloaded from Google Cloud) we use. */
export interface ServiceAccountCredentials {
  client_email: string;
  private_key: string;
  private_key_id?: string;
}

/** Parses and checks a key file (object or JSON text); throws a readable error when unusable. */
export function parseServiceAccount(input: unknown): ServiceAccountCredentials {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new Error('Service-account credentials must be the JSON key file of a Google service account');
    }
  }
  const v = value as Partial<ServiceAccountCredentials> | null;
  if (!v || typeof v.client_email !== 'string' || typeof v.private_key !== 'string') {
    throw new Error('Service-account credentials need client_email and private_key');
  }
  try {
    createPrivateKey(v.private_key);
  } catch {
    throw new Error('Service-account private_key is not a readable PEM private key');
  }
  return { client_email: v.client_email, private_key: v.private_key, ...(typeof v.private_key_id === 'string' ? { private_key_id: v.private_key_id } : {}) };
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** The signed assertion: `iss` the account, `aud` the token endpoint, valid one hour from `now`. */
export function serviceAccountAssertion(credentials: ServiceAccountCredentials, scope: string, audience: string, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000);
  const header = { alg: 'RS256', typ: 'JWT', ...(credentials.private_key_id ? { kid: credentials.private_key_id } : {}) };
  const claims = { iss: credentials.client_email, scope, aud: audience, iat, exp: iat + ASSERTION_SECONDS };
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  const signature = sign('sha256', Buffer.from(input), createPrivateKey(credentials.private_key));
  return `${input}.${b64url(signature)}`;
}

export interface TokenSource {
  token(credentials: ServiceAccountCredentials, scope: string, signal?: AbortSignal): Promise<string>;
}

export function createTokenSource(options: { fetch: FetchLike; clock: () => Date; tokenUrl?: string; timeoutMs?: number }): TokenSource {
  const tokenUrl = options.tokenUrl ?? GOOGLE_TOKEN_URL;
  const cache = new Map<string, { token: string; expiresAt: number }>();
  return {
    async token(credentials, scope, signal) {
      const key = `${credentials.client_email}\u0000${credentials.private_key_id ?? ''}\u0000${scope}`;
      const now = options.clock();
      const cached = cache.get(key);
      if (cached && cached.expiresAt - EXPIRY_MARGIN_MS > now.getTime()) return cached.token;
      const body = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: serviceAccountAssertion(credentials, scope, tokenUrl, now) });
      const { status, json } = await requestJson('google-oauth', options.fetch, tokenUrl, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
        timeoutMs: options.timeoutMs,
        signal,
      });
      if (status !== 200 || typeof json?.access_token !== 'string') {
        // Google answers { error, error_description } (RFC 6749 §5.2), e.g. invalid_grant.
        throw new ProviderError('google-oauth', [json?.error, json?.error_description].filter(Boolean).join(': ') || `HTTP ${status}`, {
          status,
          code: json?.error,
          retryable: status >= 500,
        });
      }
      const expiresIn = typeof json.expires_in === 'number' ? json.expires_in : 3600;
      cache.set(key, { token: json.access_token, expiresAt: now.getTime() + expiresIn * 1000 });
      return json.access_token as string;
    },
  };
}
