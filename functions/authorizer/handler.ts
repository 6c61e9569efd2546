import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult, Context } from 'aws-lambda';
import { AUTHORIZER_CACHE_TTL_SECONDS, AUTHORIZER_REFUSAL_MESSAGE } from '../../shared/auth/authorizer-settings';
import { clientStore, publishedKeysVerifier } from '../../shared/composition-root';
import type { AuthorizerContext } from '../../shared/auth/principal';
import { VerificationKeysUnavailableError } from '../../shared/auth/token-verifier';
import { MAX_TOKEN_LENGTH } from '../../shared/auth/tokens';
import { withDeadline } from '../../shared/aws/deadline';
import { epochSeconds } from '../../shared/domain/auth/brute-force-brake';
import { NoAnswerError, StoreUnavailableError } from '../../shared/domain/errors';
import { logger } from '../../shared/observability/logger';

/**
 * The API's Lambda authorizer: verifies the bearer token and tells the function who calls.
 * It lets every request through with its verdict in the context, because only the function can
 * answer a refusal in the commercetools error shape (API Gateway's own 401/403 bodies are not),
 * and the function checks the route's scopes against the path's project (see authorize.ts).
 * The verdict depends on the token alone, so API Gateway may cache it per Authorization header;
 * a revoked client's tokens stop working within that cache's lifetime (300 s), because each
 * uncached verdict reads the client. When the client cannot be read (DynamoDB throttled, silent or
 * away, within the invocation's deadline), revocation is undecided: the verdict says so, with the
 * time it leaves API Gateway's cache, and the function answers 503 with Retry-After until then
 * (authorize.ts); a forged token is refused before that read.
 */
export async function handler(
  event: APIGatewayRequestAuthorizerEventV2,
  lambda: Partial<Context> = {},
): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>> {
  const context = await withDeadline(lambda, () => verdict(event.headers?.authorization)).catch(undecided);
  if (context.authenticated === 'false') logRefusal(event, context.reason);
  return { isAuthorized: true, context };
}

function undecided(error: unknown): AuthorizerContext {
  // No verdict when the keys could not be read: a failed invocation is not cached (token-verifier.ts).
  if (error instanceof VerificationKeysUnavailableError) throw error;
  if (!(error instanceof StoreUnavailableError || error instanceof NoAnswerError)) throw error;
  logger.error('revocation undecided: the client could not be read', { error: error as Error });
  return { authenticated: 'unknown', retryAt: String(epochSeconds() + AUTHORIZER_CACHE_TTL_SECONDS) };
}

/**
 * One INFO line per refusal (`{"level":"INFO","msg":"token refused: <reason>","route":…,"ip":…}`):
 * why, on which route, from where; never the token or the header. The stack counts these lines as
 * the AuthorizerRefusals metric (infra/constructs/monitoring.ts).
 */
function logRefusal(event: APIGatewayRequestAuthorizerEventV2, reason: string): void {
  logger.info(`${AUTHORIZER_REFUSAL_MESSAGE}: ${reason}`, { route: event.routeKey, ip: event.requestContext?.http?.sourceIp });
}

async function verdict(authorization: string | undefined): Promise<AuthorizerContext> {
  const token = /^Bearer ([^\s]+)$/i.exec(authorization?.trim() ?? '')?.[1];
  if (!token) return refused('The Authorization header must be "Bearer <access token>".');
  if (token.length > MAX_TOKEN_LENGTH) return refused('The access token is too long.');
  let claims;
  try {
    claims = await publishedKeysVerifier()(token);
  } catch (error) {
    if (error instanceof VerificationKeysUnavailableError) throw error;
    return refused('The access token is invalid or expired.');
  }
  const client = await clientStore().get(claims.client_id);
  if (!client || client.revokedAt) return refused('The client of this access token was revoked.');
  return { authenticated: 'true', clientId: claims.client_id, scope: claims.scope, expiresAt: String(claims.exp) };
}

const refused = (reason: string): AuthorizerContext => ({ authenticated: 'false', reason });
