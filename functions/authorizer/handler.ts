import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { AUTHORIZER_REFUSAL_MESSAGE } from '../../shared/auth/authorizer-settings';
import { clientStore, publishedKeysVerifier } from '../../shared/composition-root';
import type { AuthorizerContext } from '../../shared/auth/principal';
import { VerificationKeysUnavailableError } from '../../shared/auth/token-verifier';
import { MAX_TOKEN_LENGTH } from '../../shared/auth/tokens';
import { logger } from '../../shared/observability/logger';

/**
 * The API's Lambda authorizer: verifies the bearer token and tells the function who calls.
 * It lets every request through with its verdict in the context, because only the function can
 * answer a refusal in the commercetools error shape (API Gateway's own 401/403 bodies are not),
 * and the function checks the route's scopes against the path's project (see authorize.ts).
 * The verdict depends on the token alone, so API Gateway may cache it per Authorization header;
 * a revoked client's tokens stop working within that cache's lifetime (300 s), because each
 * uncached verdict reads the client.
 */
export async function handler(
  event: APIGatewayRequestAuthorizerEventV2,
): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>> {
  const context = await verdict(event.headers?.authorization);
  if (context.authenticated === 'false') logRefusal(event, context.reason);
  return { isAuthorized: true, context };
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
    // No verdict when the keys could not be read: a failed invocation is not cached (token-verifier.ts).
    if (error instanceof VerificationKeysUnavailableError) throw error;
    return refused('The access token is invalid or expired.');
  }
  const client = await clientStore().get(claims.client_id);
  if (!client || client.revokedAt) return refused('The client of this access token was revoked.');
  return { authenticated: 'true', clientId: claims.client_id, scope: claims.scope, expiresAt: String(claims.exp) };
}

const refused = (reason: string): AuthorizerContext => ({ authenticated: 'false', reason });
