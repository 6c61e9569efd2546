import type { ApiClient, ClientStore } from '../store/client-store';
import { projectOfScope } from './scopes';
import { VerificationKeysUnavailableError } from './token-verifier';
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

/** The scope that lets a client introspect the tokens of a project (besides its own). */
export const INTROSPECTION_SCOPE = 'introspect_oauth_tokens';

/**
 * Who may introspect a token (RFC 7662 §2.1 asks for authorization, not just authentication):
 * the client the token was issued to, and a client holding `introspect_oauth_tokens:<project>`
 * for every project the token's scopes name. A token with no project scope is its own client's
 * only. Everyone else gets `{active: false}`, exactly as for a token that does not exist (§2.2),
 * so the answer does not even tell that the token is valid.
 */
export function mayIntrospect(caller: Pick<ApiClient, 'clientId' | 'scopes'>, claims: Pick<AccessTokenClaims, 'client_id' | 'scope'>): boolean {
  if (caller.clientId === claims.client_id) return true;
  const projects = claims.scope.split(' ').filter(Boolean).map(projectOfScope);
  if (projects.length === 0 || projects.some((project) => project === undefined)) return false;
  return projects.every((project) => caller.scopes.includes(`${INTROSPECTION_SCOPE}:${project}`));
}

/**
 * Whether a token is active for this caller: one this service signed (the authorizer's own
 * verifier: RS256, issuer, audience, expiry, not-before, claim shapes), whose client still exists
 * and is not revoked, and that the caller may introspect (mayIntrospect). Anything else is
 * `{active: false}` with no reason (RFC 7662 §2.2), so introspection cannot be used to learn why
 * a forged token fails.
 */
export async function introspect(
  token: string,
  verify: (token: string) => Promise<AccessTokenClaims>,
  clients: Pick<ClientStore, 'get'>,
  caller: Pick<ApiClient, 'clientId' | 'scopes' | 'revokedAt'>,
): Promise<Introspection> {
  if (token.length > MAX_TOKEN_LENGTH) return INACTIVE;
  let claims: AccessTokenClaims;
  try {
    claims = await verify(token);
  } catch (error) {
    // Keys that could not be read say nothing of the token: 503, not inactive.
    if (error instanceof VerificationKeysUnavailableError) throw error;
    return INACTIVE;
  }
  if (!mayIntrospect(caller, claims)) return INACTIVE;
  // A client introspecting its own token: its record was read by its authentication a moment ago.
  const client = claims.client_id === caller.clientId ? caller : await clients.get(claims.client_id);
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
