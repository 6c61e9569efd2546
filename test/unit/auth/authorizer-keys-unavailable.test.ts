import { generateKeyPairSync, sign } from 'node:crypto';
import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { VerificationKeysUnavailableError } from '../../../shared/auth/token-verifier';

/**
 * When the public keys cannot be read, the authorizer fails its invocation instead of refusing:
 * API Gateway caches a refusal for 300 s per token (every client that called in that moment would
 * be locked out that long) but caches no failed invocation.
 */
beforeAll(() => {
  delete process.env.SIGNING_KEY_FILE;
  // As in AWS: keys from the JWKS address; nothing listens on port 1.
  Object.assign(process.env, { TOKEN_ISSUER: 'https://api.example.test', TOKEN_AUDIENCE: 'generic-resource-service', JWKS_URL: 'https://127.0.0.1:1/oauth/jwks' });
});

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
function tokenWithKid(): string {
  const now = Math.floor(Date.now() / 1000);
  const input = `${encode({ alg: 'RS256', typ: 'JWT', kid: 'key-1' })}.${encode({ iss: 'https://api.example.test', aud: 'generic-resource-service', client_id: 'c', scope: 'view_test:demo', iat: now, exp: now + 600 })}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

describe('the authorizer when the keys cannot be read', () => {
  it('fails the invocation (not cached by API Gateway) instead of a refusal', async () => {
    const { handler } = await import('../../../functions/authorizer/handler');
    const event = { type: 'REQUEST', routeKey: 'GET /{projectKey}/resource/{id}', headers: { authorization: `Bearer ${tokenWithKid()}` }, requestContext: { http: { sourceIp: '203.0.113.7' } } };
    await expect(handler(event as unknown as APIGatewayRequestAuthorizerEventV2)).rejects.toBeInstanceOf(VerificationKeysUnavailableError);
  });
});
