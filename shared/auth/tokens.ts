import { randomUUID } from 'node:crypto';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import type { SigningKeys } from './signing-keys';

export interface TokenSettings {
  issuer: string;
  audience: string;
}

export type AccessTokenClaims = JwtPayload & { exp: number; client_id: string; scope: string };

/**
 * Largest bearer token the API reads (API Gateway takes 10 KB of request line and headers): about
 * 1 KB plus 40 characters per scope, so a client with a few hundred scopes gets a 400 asking for
 * fewer (issue-token) instead of a token every call would refuse.
 */
export const MAX_TOKEN_LENGTH = 8 * 1024;

/** Signs an RS256 JWT for a client with the given scopes. */
export async function issueAccessToken(
  keys: SigningKeys,
  settings: TokenSettings & { ttlSeconds: number },
  grant: { clientId: string; scopes: readonly string[] },
): Promise<{ token: string; expiresIn: number }> {
  const issuedAt = Math.floor(Date.now() / 1000);
  const payload = {
    iss: settings.issuer,
    sub: grant.clientId,
    aud: settings.audience,
    iat: issuedAt,
    nbf: issuedAt,
    exp: issuedAt + settings.ttlSeconds,
    jti: randomUUID(),
    client_id: grant.clientId,
    scope: grant.scopes.join(' '),
  };
  const { kid } = await keys.publicJwks().then(({ keys: [current] }) => current!);
  const signingInput = `${base64url({ alg: 'RS256', typ: 'JWT', kid })}.${base64url(payload)}`;
  const { signature } = await keys.sign(Buffer.from(signingInput));
  return { token: `${signingInput}.${signature.toString('base64url')}`, expiresIn: settings.ttlSeconds };
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
