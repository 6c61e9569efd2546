import { randomUUID } from 'node:crypto';
import { JwtVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import { isCanonicalScopeClaim } from './scopes';
import type { SigningKeys } from './signing-keys';

export interface TokenSettings {
  issuer: string;
  audience: string;
}

export type AccessTokenClaims = JwtPayload & { exp: number; client_id: string; scope: string };

/** Largest bearer token worth reading: ours are well under 2 KB. */
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

/**
 * A verifier for our own tokens, built on aws-jwt-verify: signature (RS256 only), issuer,
 * audience, expiry and not-before. The JWKS comes from the signing keys when given, else from the
 * issuer's JWKS endpoint over HTTPS (`/oauth/jwks`, aws-jwt-verify's own fetch); either way an
 * unknown `kid` re-reads the keys (rotation) with aws-jwt-verify's penalty box against floods.
 */
export function createTokenVerifier(keys: SigningKeys | undefined, settings: TokenSettings) {
  const jwksCache = keys
    ? new SimpleJwksCache({
        fetcher: {
          fetch: async () => {
            const bytes = new TextEncoder().encode(JSON.stringify(await keys.publicJwks()));
            return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
          },
        },
      })
    : undefined;
  const verifier = JwtVerifier.create(
    {
      issuer: settings.issuer,
      audience: settings.audience,
      jwksUri: `${settings.issuer}/oauth/jwks`,
      customJwtCheck: ({ header, payload }) => {
        // aws-jwt-verify accepts tokens without `exp`; ours always expire.
        if (typeof payload.exp !== 'number') throw new Error('The token has no expiry.');
        if (header.alg !== 'RS256') throw new Error('The token is not signed with RS256.');
        if (typeof payload.client_id !== 'string' || payload.client_id === '' || typeof payload.scope !== 'string') {
          throw new Error('The token lacks client_id or scope.');
        }
        // Only the exact shape we issue: `"manage_test:demo "`, double spaces or a tab are not ours.
        if (!isCanonicalScopeClaim(payload.scope)) throw new Error('The token scope is not a space-separated string of scopes.');
      },
    },
    jwksCache && { jwksCache },
  );
  return async (token: string): Promise<AccessTokenClaims> => (await verifier.verify(token)) as unknown as AccessTokenClaims;
}
