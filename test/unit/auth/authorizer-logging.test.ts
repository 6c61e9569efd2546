import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTHORIZER_REFUSAL_MESSAGE } from '../../../shared/auth/authorizer-settings';

/**
 * The authorizer logs each refusal with its reason (the stack counts these lines as the
 * AuthorizerRefusals metric) and never the token. Refusals before any store read need no table.
 */
beforeAll(() => {
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' });
  const file = join(mkdtempSync(join(tmpdir(), 'grs-authorizer-')), 'key.pem');
  writeFileSync(file, pem);
  Object.assign(process.env, { SIGNING_KEY_FILE: file, TOKEN_ISSUER: 'http://localhost:8080', TOKEN_AUDIENCE: 'generic-resource-service' });
});
afterEach(() => vi.restoreAllMocks());

const eventWith = (authorization: string | undefined) =>
  ({
    type: 'REQUEST',
    routeKey: 'GET /{projectKey}/resource/{id}',
    headers: authorization === undefined ? {} : { authorization },
    requestContext: { http: { sourceIp: '203.0.113.7' } },
  }) as unknown as APIGatewayRequestAuthorizerEventV2;

async function refusalLog(authorization: string | undefined) {
  const written: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  const { handler } = await import('../../../functions/authorizer/handler');
  const result = await handler(eventWith(authorization));
  return { result, lines: written.join('').split('\n').filter(Boolean) };
}

describe('the authorizer logs each refusal', () => {
  it.each([
    ['no header', undefined, 'The Authorization header must be "Bearer <access token>".'],
    ['another scheme', 'Basic dXNlcjpwYXNz', 'The Authorization header must be "Bearer <access token>".'],
    ['a token that is not ours', 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJzZWNyZXQiOiJ4In0.c2lnbmF0dXJl', 'The access token is invalid or expired.'],
    ['an oversized token', `Bearer ${'a'.repeat(9000)}`, 'The access token is too long.'],
  ])('%s: one INFO line with the reason, route and source, without the token', async (_, authorization, reason) => {
    const { result, lines } = await refusalLog(authorization);
    expect(result.context).toEqual({ authenticated: 'false', reason });
    expect(lines).toHaveLength(1);
    // The stack's AuthorizerRefusals metric filter matches `$.msg` beginning so (infra/constructs/monitoring.ts).
    expect(JSON.parse(lines[0]!)).toEqual({
      level: 'INFO',
      msg: `${AUTHORIZER_REFUSAL_MESSAGE}: ${reason}`,
      route: 'GET /{projectKey}/resource/{id}',
      ip: '203.0.113.7',
    });
    const token = authorization?.split(' ')[1];
    if (token) expect(lines[0]).not.toContain(token.slice(0, 20));
  });
});
