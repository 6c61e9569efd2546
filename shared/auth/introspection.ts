import type { ClientStore } from '../store/client-store';
import { MAX_TOKEN_LENGTH, type AccessTokenClaims } from './tokens';

/** RFC 7662 §2.2: what an introspection answers. */
export type Introspection =
  | { active: false }
  | {
      active: true;
      scope: string;
      client_id: string;
      token_type: 'Bearer';
      exp: number;
      iat?: number;
      nbf?: number;
      sub?: string;
      aud?: string | string[];
      iss?: string;
      jti?: string;
    };

const INACTIVE: Introspection = { active: false };

/**
 * Whether a token is active: one this service signed (the authorizer's own verifier: RS256,
 * issuer, audience, expiry, not-before, claim shapes), whose client still exists and is not
 * revoked. Anything else is `{active: false}` with no reason (RFC 7662 §2.2), so introspection
 * cannot be used to learn why a forged token fails.
 */
export async function introspect(
  token: string,
  verify: (token: string) => Promise<AccessTokenClaims>,
  clients: Pick<ClientStore, 'get'>,
): Promise<Introspection> {
  if (token.length > MAX_TOKEN_LENGTH) return INACTIVE;
  let claims: AccessTokenClaims;
  try {
    claims = await verify(token);
  } catch {
    return INACTIVE;
  }
  const client = await clients.get(claims.client_id);
  if (!client || client.revokedAt) return INACTIVE;
  return {
    active: true,
    scope: claims.scope,
    client_id: claims.client_id,
    token_type: 'Bearer',
    exp: claims.exp,
    iat: claims.iat,
    nbf: claims.nbf,
    sub: claims.sub,
    aud: claims.aud,
    iss: claims.iss,
    jti: claims.jti,
  };
}
