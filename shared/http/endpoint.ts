import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type {
  APIGatewayProxyEventV2WithLambdaAuthorizer,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import { principalFrom, type AuthorizerContext, type Principal } from '../auth/principal';
import { correlationId } from './middleware/correlation-id';
import { errorResponder } from './middleware/error-responder';
import { observe } from './middleware/observe';
import { authorize } from './middleware/authorize';
import { bodyLimit } from './middleware/body-limit';
import { jsonDepthLimit } from './middleware/json-depth';
import { checkParameters } from './parameters';
import { QueryParameters } from './query-parameters';
import { routeKey, routesOf, type Route } from './routes';

export type ApiEvent = APIGatewayProxyEventV2WithLambdaAuthorizer<AuthorizerContext>;
export type ApiResult = APIGatewayProxyStructuredResultV2;

/** What a handler sees of its request: decoded, parsed, and already authorized. */
export interface ApiRequest {
  route: Route;
  method: string;
  rawPath: string;
  /** The path's projectKey ('' on routes outside a project). */
  projectKey: string;
  path: Record<string, string>;
  query: QueryParameters;
  /** Parsed JSON on JSON routes, the raw bytes on binary routes, the text on form routes. */
  body: unknown;
  headers: Record<string, string | undefined>;
  principal?: Principal;
  correlationId: string;
  /** The caller's address as API Gateway saw it (the brute-force brake counts per source). */
  sourceIp: string;
}

export interface ApiResponse {
  statusCode: number;
  /** Sent as JSON. */
  body?: unknown;
  /** A body that is not JSON (the API reference's HTML, CSS, JavaScript), sent as is; set its content-type in `headers`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export type EndpointHandler = (request: ApiRequest) => Promise<ApiResponse>;

/** Largest JSON body a resource endpoint takes: a stored item must stay under DynamoDB's 400 KB. */
export const JSON_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Wraps an endpoint's logic into a Lambda handler with the conventions every endpoint shares:
 * correlation id, logs and metrics, errors in the commercetools shape, scopes from the route
 * table, declared query parameters, body parsing.
 */
export function endpoint(handlerName: string, handle: EndpointHandler) {
  const served = routesOf(handlerName);
  const bodyKind = served[0]?.body ?? 'none';

  const lambda = middy<ApiEvent, ApiResult, Error, Context>()
    .use(correlationId())
    .use(observe())
    .use(errorResponder())
    .use(authorize(served));
  if (bodyKind === 'json') {
    lambda.use(bodyLimit(JSON_BODY_LIMIT_BYTES)).use(httpJsonBodyParser()).use(jsonDepthLimit());
  }

  return lambda.handler(async (event) => {
    const route = served.find((candidate) => routeKey(candidate) === event.routeKey) ?? served[0]!;
    const query = new QueryParameters(event.rawQueryString);
    checkParameters(route.query, query);
    const response = await handle({
      route,
      method: event.requestContext.http.method,
      rawPath: event.rawPath,
      projectKey: event.pathParameters?.projectKey ?? '',
      path: (event.pathParameters ?? {}) as Record<string, string>,
      query,
      body: readBody(event, route),
      headers: event.headers ?? {},
      principal: principalFrom(event.requestContext.authorizer?.lambda),
      correlationId: event.headers?.['x-correlation-id'] ?? '',
      sourceIp: event.requestContext.http.sourceIp,
    });
    return render(response, event.requestContext.http.method);
  });
}

function readBody(event: ApiEvent, route: Route): unknown {
  if (route.body === 'json') return event.body; // parsed by the JSON middleware
  if (event.body === undefined) return undefined;
  const bytes = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  return route.body === 'binary' ? bytes : bytes.toString('utf8');
}

/** Every answer is JSON unless the handler gives a raw body; HEAD answers have no body. */
export function render(response: ApiResponse, method: string): ApiResult {
  if (response.rawBody !== undefined) {
    return { statusCode: response.statusCode, headers: { ...response.headers }, body: method === 'HEAD' ? '' : response.rawBody };
  }
  const hasBody = method !== 'HEAD' && response.body !== undefined;
  return {
    statusCode: response.statusCode,
    headers: { ...(hasBody ? { 'content-type': 'application/json; charset=utf-8' } : {}), ...response.headers },
    body: hasBody ? JSON.stringify(response.body) : '',
  };
}

export const ok = (body: unknown): ApiResponse => ({ statusCode: 200, body });
export const created = (body: unknown): ApiResponse => ({ statusCode: 201, body });
