import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { principalFrom } from '../auth/principal';
import { withDeadline } from '../aws/deadline';
import { InvalidInputError } from '../domain/errors';
import type { ApiEvent, ApiResponse, ApiResult, EndpointHandler } from './api-types';
import { checkEndpoint, EndpointDeclarationError, routeKey, type EndpointDeclaration, type PathParameterOf, type RouteDeclaration } from './declaration';
import { oauthError } from './errors';
import type { Replay } from './idempotency-keys';
import type { BodyPipeline } from './json-body-pipeline';
import { authorize } from './middleware/authorize';
import { correlationId } from './middleware/correlation-id';
import { errorResponder } from './middleware/error-responder';
import { literalPaths } from './middleware/literal-paths';
import { observe } from './middleware/observe';
import { checkParameters } from './parameters';
import { QueryParameters } from './query-parameters';
import { render } from './render';
import { fitForLambda } from './response-size';

export type { ApiEvent, ApiRequest, ApiResponse, ApiResult, EndpointHandler } from './api-types';

/** The path parameters of every route an endpoint declares. */
export type PathParametersOf<D extends EndpointDeclaration> = PathParameterOf<D['routes'][number]['path']>;

/**
 * The Lambda handler of an endpoint, built from its declaration: correlation id, the request's log line,
 * errors in the commercetools shape, the declared access rule of the route being served, declared
 * query parameters, body parsing (JSON routes: the `jsonBody` pipeline, given by their handlers);
 * then `handle` — once per Idempotency-Key when the endpoint takes them (`replay`, given by its handler
 * as `idempotencyKeys(...)`, so that only those bundles carry it). The declaration is checked first, so
 * an endpoint whose access cannot be enforced, or whose JSON body would go unparsed, or whose declared
 * Idempotency-Key would be ignored, fails when its module loads and never serves a request.
 */
export function endpoint<const D extends EndpointDeclaration>(declaration: D, handle: EndpointHandler<PathParametersOf<D>>, body?: BodyPipeline, replay?: Replay) {
  checkEndpoint(declaration);
  const takesJson = (route: RouteDeclaration) => route.body === 'json';
  if (declaration.routes.some(takesJson) !== (body !== undefined)) {
    throw new EndpointDeclarationError(
      `The endpoint ${declaration.name} ${body ? 'is given a body pipeline for routes that take no JSON' : 'takes JSON bodies: its handler must give endpoint() the jsonBody pipeline'}.`,
    );
  }
  if ((declaration.idempotencyKey === true) !== (replay !== undefined)) {
    throw new EndpointDeclarationError(
      `The endpoint ${declaration.name} ${replay ? 'is given idempotencyKeys without declaring idempotencyKey' : 'declares idempotencyKey: its handler must give endpoint() idempotencyKeys'}.`,
    );
  }
  const served = new Map<string, RouteDeclaration>(declaration.routes.map((route) => [routeKey(route), route]));
  /** The declared route API Gateway routed this event by; anything else is refused, never served unchecked. */
  const routeOf = (event: ApiEvent): RouteDeclaration => {
    const route = served.get(event.routeKey);
    if (!route) throw new Error(`The endpoint ${declaration.name} does not serve the route ${event.routeKey}.`);
    return route;
  };

  // Middy runs `before` in this order and `after`/`onError` in the reverse one: the error responder
  // renders a failure before observe() writes the request's line.
  const lambda = middy<ApiEvent, ApiResult, Error, Context>()
    .use(correlationId())
    .use(observe())
    .use(errorResponder())
    .use(literalPaths(routeOf))
    .use(authorize(routeOf));
  // The body pipeline reads the JSON routes' bodies only: a function may serve other routes beside them.
  for (const { before } of body?.() ?? []) lambda.use({ before: (request) => (takesJson(routeOf(request.event)) ? before?.(request) : undefined) });

  const answer = async (event: ApiEvent): Promise<ApiResult> => {
    const route = routeOf(event);
    const query = queryOf(event, route);
    const response = await handle({
      route,
      method: event.requestContext.http.method,
      rawPath: event.rawPath,
      projectKey: event.pathParameters?.projectKey ?? '',
      path: (event.pathParameters ?? {}) as Record<PathParametersOf<D>, string>,
      query,
      body: readBody(event, route),
      headers: event.headers ?? {},
      principal: principalFrom(event.requestContext.authorizer?.lambda),
      correlationId: event.headers?.['x-correlation-id'] ?? '',
      sourceIp: event.requestContext.http.sourceIp,
    });
    return render(response, event.requestContext.http.method);
  };
  const answerOnce = replay?.(answer) ?? answer;
  // One deadline for the whole invocation, below the function's timeout (request-timeouts.ts).
  return lambda.handler((event, context) =>
    withDeadline(context, async () => fitForLambda(await answerOnce(event, context), event.headers['accept-encoding'])),
  );
}

/** The request's query parameters, checked against the route's; the OAuth routes refuse in RFC 6749's shape. */
function queryOf(event: ApiEvent, route: RouteDeclaration): QueryParameters {
  try {
    const query = new QueryParameters(event.rawQueryString);
    checkParameters(route.query, query);
    return query;
  } catch (error) {
    if (error instanceof InvalidInputError && route.errors.includes('OAuthBadRequest')) throw oauthError(400, 'invalid_request', error.message);
    throw error;
  }
}

function readBody(event: ApiEvent, route: RouteDeclaration): unknown {
  if (route.body === 'json') return event.body; // parsed by the JSON middleware
  if (event.body === undefined) return undefined;
  const bytes = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  return route.body === 'binary' ? bytes : bytes.toString('utf8');
}

export const ok = (body: unknown): ApiResponse => ({ statusCode: 200, body });
export const created = (body: unknown): ApiResponse => ({ statusCode: 201, body });
