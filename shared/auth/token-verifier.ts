import { JwtVerifier } from 'aws-jwt-verify';
import { FetchError, JwksValidationError } from 'aws-jwt-verify/error';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { StoreUnavailableError } from '../domain/errors';
import { isCanonicalScopeClaim } from './scopes';
import type { SigningKeys } from './signing-keys';
import type { AccessTokenClaims, TokenSettings } from './tokens';

/**
 * A verifier for our own tokens, built on aws-jwt-verify: signature (RS256 only), issuer,
 * audience, expiry and not-before. The JWKS comes from the signing keys when given, else from the
 * JWKS endpoint over HTTPS (`jwksUri`, by default the issuer's `/oauth/jwks`; aws-jwt-verify's own
 * fetch); either way an unknown `kid` re-reads the keys (rotation) with aws-jwt-verify's penalty
 * box against floods.
 * Apart from issuing (tokens.ts), so the token function does not carry aws-jwt-verify.
 */
export function createTokenVerifier(keys: SigningKeys | undefined, settings: TokenSettings & { jwksUri?: string }) {
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
      jwksUri: settings.jwksUri ?? `${settings.issuer}/oauth/jwks`,
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
  return async (token: string): Promise<AccessTokenClaims> => {
    try {
      return (await verifier.verify(token)) as unknown as AccessTokenClaims;
    } catch (error) {
      // The keys could not be read: no verdict on the token, which must not be refused for it.
      if (error instanceof FetchError || error instanceof JwksValidationError) throw new VerificationKeysUnavailableError(error);
      throw error;
    }
  };
}

/**
 * The public keys could not be read (the JWKS endpoint failed, timed out or answered no JWKS): a
 * key store that does not answer, so 503 like a store's (retryable). The authorizer lets it fail
 * the invocation — API Gateway then answers 500 and caches nothing — instead of a refusal that
 * API Gateway would keep for 300 s for every token it saw.
 */
export class VerificationKeysUnavailableError extends StoreUnavailableError {}
