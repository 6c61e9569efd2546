import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { AUTHORIZER_CACHE_TTL_SECONDS, AUTHORIZER_IDENTITY_HEADER } from '../shared/auth/authorizer-settings';
import type { AuthorizerContext } from '../shared/auth/principal';
import type { EndpointDeclaration } from '../shared/http/declaration';
import { ApiError, general, invalidToken, requestEntityTooLarge } from '../shared/http/errors';
import { CORRELATION_ID_HEADER, correlationIdOf } from '../shared/http/middleware/correlation-id';
import { routeMatcher } from '../shared/http/route-matcher';
import { routeTableOf } from '../shared/http/route-table';
import { withCors } from './cors';
import {
  authorizerEvent,
  exceedsLambdaPayload,
  headerValue,
  LAMBDA_PAYLOAD_LIMIT_BYTES,
  lambdaContext,
  requestTarget,
  routeEvent,
  type AuthorizerHandler,
  type GatewayRequest,
  type RouteHandler,
} from './lambda-events';

/** API Gateway refuses larger request payloads with 413. */
export const GATEWAY_PAYLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * An event over Lambda's limit (lambda-events.ts) never reaches the function. What API Gateway
 * answers then is not in AWS's documentation: REST APIs were seen answering 413
 * `{"message": "Request Too Long"}`, and an HTTP API's body is not on record. So, like the 10 MB
 * refusal, the status is API Gateway's (413) and the body the service's shape, whose `message` is
 * where API Gateway's generic `{"message"}` has it.
 */
const lambdaPayloadTooLarge = () =>
  new ApiError(413, [
    {
      code: 'RequestEntityTooLarge',
      message: `The request exceeds the ${LAMBDA_PAYLOAD_LIMIT_BYTES} bytes a function is invoked with (the request as JSON, a binary body base64-encoded).`,
    },
  ]);

export interface GatewayOptions {
  /** The endpoints to route to (functions/endpoints.ts), and the one that answers unmatched requests. */
  endpoints: readonly EndpointDeclaration[];
  fallback: EndpointDeclaration;
  /** The Lambda handler of an endpoint (its functions/<name>/handler.ts). */
  loadHandler: (endpoint: EndpointDeclaration) => Promise<RouteHandler>;
  authorizer: AuthorizerHandler;
  /** Browser origins allowed by CORS (local/cors.ts); none when empty. */
  corsOrigins?: readonly string[];
}

export interface Gateway {
  /** One request through the gateway: CORS, route, authorizer, handler; no sockets involved. */
  answer(request: GatewayRequest): Promise<APIGatewayProxyStructuredResultV2>;
  /** The methods some route serves at `path`: none when no route has that path. */
  allowedMethods(path: string): readonly string[];
}

/**
 * A local stand-in for API Gateway (HTTP API, payload 2.0): it routes with the endpoints' routes by
 * API Gateway's rules, runs the authorizer (with its result cache) on protected routes, and
 * invokes the route's handler with the event Lambda would receive (lambda-events.ts).
 * Where API Gateway itself would refuse (no Authorization header, payload over 10 MB, an event over
 * Lambda's 6,291,456 bytes, no route) it answers in the service's error shape; API Gateway's own
 * bodies there are `{"message": ...}`. Its HTTP face is local/http-server.ts.
 */
export function createGateway({ endpoints, fallback, loadHandler, authorizer, corsOrigins = [] }: GatewayOptions): Gateway {
  const matchRoute = routeMatcher(routeTableOf(endpoints));
  const verdicts = new Map<string, { context: AuthorizerContext; expiresAt: number }>();

  /** The authorizer's verdict on the request, cached by its identity for as long as API Gateway caches it. */
  async function authorize(event: APIGatewayProxyEventV2): Promise<AuthorizerContext> {
    const identity = event.headers[AUTHORIZER_IDENTITY_HEADER];
    if (!identity) throw invalidToken('This endpoint requires an access token: Authorization: Bearer <token>.');
    const cached = verdicts.get(identity);
    if (cached && cached.expiresAt > Date.now()) return cached.context;

    const result = await authorizer(authorizerEvent(event, identity), lambdaContext('authorizer'));
    if (!result.isAuthorized) throw invalidToken();
    verdicts.set(identity, { context: result.context, expiresAt: Date.now() + AUTHORIZER_CACHE_TTL_SECONDS * 1000 });
    return result.context;
  }

  async function answer(request: GatewayRequest): Promise<APIGatewayProxyStructuredResultV2> {
    const requestId = randomUUID();
    try {
      if (request.body.length > GATEWAY_PAYLOAD_LIMIT_BYTES) throw requestEntityTooLarge(GATEWAY_PAYLOAD_LIMIT_BYTES);
      const url = requestTarget(request.url);
      const match = matchRoute(request.method.toUpperCase(), url.pathname);
      const served = 'route' in match ? match.route : { key: '$default', route: fallback.routes[0], endpoint: fallback };
      const event = routeEvent(request, url, { requestId, routeKey: served.key, pathParameters: 'route' in match ? match.pathParameters : undefined });
      // The authorizer runs where API Gateway runs it: on routes that take a token. Any access rule
      // but `public` takes one, so an unknown rule is refused here too.
      if (served.route.access.kind !== 'public') {
        (event.requestContext as unknown as { authorizer: unknown }).authorizer = { lambda: await authorize(event) };
      }
      // After the authorizer, as in AWS: only the function's invocation carries the body.
      if (exceedsLambdaPayload(event)) throw lambdaPayloadTooLarge();
      const handler = await loadHandler(served.endpoint);
      return withRequestId(await handler(event, lambdaContext(served.endpoint.name)), requestId);
    } catch (error) {
      return refusal(error, request.headers, requestId);
    }
  }

  return {
    answer: withCors(answer, corsOrigins),
    allowedMethods: (path) => {
      // No route serves an empty method, so the match tells only which methods the path allows.
      const match = matchRoute('', path);
      return 'allowedMethods' in match ? match.allowedMethods : [];
    },
  };
}

/** What the gateway answers when it refuses, in the service's error shape: an ApiError as it is, anything else as a 500 `General` (logged, its details kept from the caller). */
export function refusal(error: unknown, headers: GatewayRequest['headers'], requestId: string): APIGatewayProxyStructuredResultV2 {
  const apiError = isApiError(error) ? error : (console.error(error), general());
  return withRequestId(
    {
      statusCode: apiError.statusCode,
      headers: { 'content-type': 'application/json; charset=utf-8', ...apiError.headers, 'X-Correlation-ID': correlationIdOf(headerValue(headers[CORRELATION_ID_HEADER])) },
      body: JSON.stringify(apiError.body),
    },
    requestId,
  );
}

export function isApiError(error: unknown): error is ApiError {
  return (error as ApiError)?.name === 'ApiError';
}

function withRequestId(result: APIGatewayProxyStructuredResultV2, requestId: string): APIGatewayProxyStructuredResultV2 {
  return { ...result, headers: { ...result.headers, 'apigw-requestid': requestId } };
}
