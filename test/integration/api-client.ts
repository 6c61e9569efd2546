import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { inject } from 'vitest';
import { toPublicJwk } from '../../shared/auth/signing-keys';

/** A small HTTP client for the local stack, as an API user would call it. */
export const baseUrl = inject('baseUrl');
export const devClient = inject('devClient');

export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = any>(
  method: string,
  path: string,
  options: { token?: string; json?: unknown; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const tokens = new Map<string, string>();

/** A token of the development client, for all its scopes or the ones asked for. */
export async function tokenFor(scope?: string): Promise<string> {
  const cached = tokens.get(scope ?? '*');
  if (cached) return cached;
  const form = new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
  const answer = await call('POST', '/oauth/token', {
    body: form.toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${devClient.clientId}:${devClient.clientSecret}`).toString('base64')}`,
    },
  });
  if (answer.status !== 200) throw new Error(`token request failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  tokens.set(scope ?? '*', answer.body.access_token);
  return answer.body.access_token;
}

/** Signs arbitrary claims with the local stack's own key: for tokens the service must refuse. */
export function forgeToken(claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const privateKey = createPrivateKey(readFileSync(join(inject('dataDir'), 'signing-key.pem')));
  const { kid } = toPublicJwk(createPublicKey(privateKey));
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg: 'RS256', typ: 'JWT', kid, ...header })}.${encode(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

export function validClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: baseUrl.replace('127.0.0.1', 'localhost'),
    aud: 'generic-resource-service',
    sub: devClient.clientId,
    client_id: devClient.clientId,
    scope: 'manage_test:demo',
    iat: now,
    nbf: now,
    exp: now + 600,
    ...overrides,
  };
}

export const draftExample = JSON.parse(
  readFileSync(new URL('../fixtures/examples/object-test-type-draft.json', import.meta.url), 'utf8'),
) as { objectTypeProperty: Record<string, unknown> };

export const uniqueKey = (prefix = 'key') => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
