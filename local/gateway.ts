import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerWithContextResult,
  Context,
} from 'aws-lambda';
import { AUTHORIZER_CACHE_TTL_SECONDS, AUTHORIZER_IDENTITY_HEADER } from '../shared/auth/authorizer-settings';
import type { AuthorizerContext } from '../shared/auth/principal';
import { general, invalidToken, requestEntityTooLarge, type ApiError } from '../shared/http/errors';
import { matchRoute } from '../shared/http/route-matcher';
import { fallbackRoute, routeKey, type Route } from '../shared/http/routes';

/** API Gateway refuses larger request payloads with 413. */
export const GATEWAY_PAYLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

type LambdaHandler<E, R> = (event: E, context: Context) => Promise<R>;
export type RouteHandler = LambdaHandler<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;
export type AuthorizerHandler = LambdaHandler<
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>
>;

export interface GatewayOptions {
  /** The handler of a function folder under functions/. */
  loadHandler: (name: string) => Promise<RouteHandler>;
  authorizer: AuthorizerHandler;
  /** Told of every answer, for a readable access log. */
  onAnswered?: (answer: AnsweredRequest) => void;
}

export interface AnsweredRequest {
  method: string;
  path: string;
  status: number;
  milliseconds: number;
  correlationId: string;
}

/**
 * A local stand-in for API Gateway (HTTP API, payload 2.0): it routes with the route table by
 * API Gateway's rules, runs the authorizer (with its result cache) on protected routes, turns
 * requests into the same events Lambda receives and the handlers' results back into responses.
 * Where API Gateway itself would refuse (no Authorization header, payload over 10 MB, no route)
 * it answers in the service's error shape; API Gateway's own bodies there are `{"message": ...}`.
 */
export function createGateway({ loadHandler, authorizer, onAnswered }: GatewayOptions) {
  const verdicts = new Map<string, { context: AuthorizerContext; expiresAt: number }>();

  async function authorize(event: APIGatewayProxyEventV2): Promise<AuthorizerContext> {
    const identity = event.headers[AUTHORIZER_IDENTITY_HEADER];
    if (!identity) throw invalidToken('This endpoint requires an access token: Authorization: Bearer <token>.');
    const cached = verdicts.get(identity);
    if (cached && cached.expiresAt > Date.now()) return cached.context;

    const result = await authorizer(
      { ...event, cookies: event.cookies ?? [], type: 'REQUEST', routeArn: `arn:aws:execute-api:local:000000000000:local/$default/${event.routeKey.replace(' ', '')}`, identitySource: [identity] },
      lambdaContext('authorizer'),
    );
    if (!result.isAuthorized) throw invalidToken();
    verdicts.set(identity, { context: result.context, expiresAt: Date.now() + AUTHORIZER_CACHE_TTL_SECONDS * 1000 });
    return result.context;
  }

  /** One request through the gateway: route, authorizer, handler — no sockets involved. */
  async function answer(request: GatewayRequest): Promise<APIGatewayProxyStructuredResultV2> {
    const requestId = randomUUID();
    try {
      if (request.body.length > GATEWAY_PAYLOAD_LIMIT_BYTES) throw requestEntityTooLarge(GATEWAY_PAYLOAD_LIMIT_BYTES);
      const url = requestTarget(request.url);
      const method = request.method.toUpperCase();
      const match = matchRoute(method, url.pathname);
      const route: Route | typeof fallbackRoute = 'route' in match ? match.route : fallbackRoute;
      const event = toEvent(request, url, {
        requestId,
        routeKey: 'route' in match ? routeKey(route as Route) : '$default',
        pathParameters: 'route' in match ? match.pathParameters : undefined,
      });
      if (route.access.kind === 'project') {
        (event.requestContext as unknown as { authorizer: unknown }).authorizer = { lambda: await authorize(event) };
      }
      const handler = await loadHandler(route.handler);
      return withRequestId(await handler(event, lambdaContext(route.handler)), requestId);
    } catch (error) {
      return withRequestId(refusal(error, request.headers), requestId);
    }
  }

  /** The HTTP face of `answer`, for node:http. */
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = performance.now();
    if (onAnswered) {
      response.once('finish', () =>
        onAnswered({
          method: request.method ?? 'GET',
          path: (request.url ?? '/').split('?')[0]!,
          status: response.statusCode,
          milliseconds: Math.round(performance.now() - started),
          correlationId: String(response.getHeader('x-correlation-id') ?? ''),
        }),
      );
    }
    const body = await readBody(request).catch((error: unknown) => error as ApiError);
    if (isApiError(body)) {
      send(response, request.method ?? 'GET', withRequestId(refusal(body, request.headers), randomUUID()));
      return;
    }
    const result = await answer({
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: request.headers,
      body,
      protocol: `HTTP/${request.httpVersion}`,
      sourceIp: request.socket.remoteAddress,
    });
    try {
      send(response, request.method ?? 'GET', result);
    } catch (error) {
      // A response that cannot be written (e.g. an invalid header) must not end the whole stack.
      console.error(error);
      if (!response.headersSent) send(response, request.method ?? 'GET', withRequestId(refusal(undefined, request.headers), result.headers?.['apigw-requestid'] as string));
      else response.destroy();
    }
  }

  return { answer, handle };
}

/** A request as the gateway sees it, whether it came over a socket or from a test. */
export interface GatewayRequest {
  method: string;
  /** Path and query string. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  protocol?: string;
  sourceIp?: string;
}

/**
 * The path and raw query of a request target, split as API Gateway does: at the first `?`, with
 * nothing normalised (a WHATWG URL would read `/\\` as an authority and refuse or rewrite it).
 */
function requestTarget(target: string): { pathname: string; query: string } {
  const separator = target.indexOf('?');
  const pathname = separator === -1 ? target : target.slice(0, separator);
  return { pathname: pathname.startsWith('/') ? pathname : `/${pathname}`, query: separator === -1 ? '' : target.slice(separator + 1) };
}

function withRequestId(result: APIGatewayProxyStructuredResultV2, requestId: string): APIGatewayProxyStructuredResultV2 {
  return { ...result, headers: { ...result.headers, 'apigw-requestid': requestId } };
}

function isApiError(error: unknown): error is ApiError {
  return (error as ApiError)?.name === 'ApiError';
}

/** What the gateway itself answers when it refuses: the service's error shape. */
function refusal(error: unknown, headers: GatewayRequest['headers']): APIGatewayProxyStructuredResultV2 {
  const apiError = isApiError(error) ? error : (console.error(error), general());
  return {
    statusCode: apiError.statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...apiError.headers, 'X-Correlation-ID': correlationOf(headers) },
    body: JSON.stringify(apiError.body),
  };
}

function correlationOf(headers: GatewayRequest['headers']): string {
  const given = headers['x-correlation-id'];
  return typeof given === 'string' && /^[\w.:/-]{1,256}$/.test(given) ? given : `projects-${randomUUID()}`;
}

const NO_BODY = Buffer.alloc(0);

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > GATEWAY_PAYLOAD_LIMIT_BYTES) throw requestEntityTooLarge(GATEWAY_PAYLOAD_LIMIT_BYTES);
  // Performance: most requests (GET, HEAD, DELETE) have no body; reading an empty stream costs a turn.
  if (declared === 0 && request.headers['transfer-encoding'] === undefined) {
    request.resume();
    return NO_BODY;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_PAYLOAD_LIMIT_BYTES) throw requestEntityTooLarge(GATEWAY_PAYLOAD_LIMIT_BYTES);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Content types API Gateway passes as text; every other body arrives base64-encoded. */
const TEXT_CONTENT = /^(text\/|application\/(json|[\w.+-]+\+json|x-www-form-urlencoded|xml|javascript))/i;

function toEvent(
  request: GatewayRequest,
  url: { pathname: string; query: string },
  routing: { requestId: string; routeKey: string; pathParameters?: Record<string, string> },
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && name !== 'cookie') headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const rawQueryString = url.query;
  const queryStringParameters: Record<string, string> = {};
  if (rawQueryString) {
    for (const [name, value] of new URLSearchParams(rawQueryString)) {
      queryStringParameters[name] = name in queryStringParameters ? `${queryStringParameters[name]},${value}` : value;
    }
  }
  const text = TEXT_CONTENT.test(headers['content-type'] ?? '');
  const now = new Date();
  return {
    version: '2.0',
    routeKey: routing.routeKey,
    rawPath: url.pathname,
    rawQueryString,
    cookies: headerValue(request.headers.cookie)?.split(';').map((cookie) => cookie.trim()),
    headers,
    queryStringParameters: rawQueryString ? queryStringParameters : undefined,
    pathParameters: routing.pathParameters,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0]!,
      http: {
        method: request.method.toUpperCase(),
        path: url.pathname,
        protocol: request.protocol ?? 'HTTP/1.1',
        sourceIp: request.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: routing.requestId,
      routeKey: routing.routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: request.body.length === 0 ? undefined : request.body.toString(text ? 'utf8' : 'base64'),
    isBase64Encoded: request.body.length > 0 && !text,
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

function send(response: ServerResponse, method: string, result: APIGatewayProxyStructuredResultV2) {
  const body = result.body === undefined ? NO_BODY : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  headers['content-length'] = method === 'HEAD' ? 0 : body.length;
  // Performance: status and headers in one call, written with the body in one packet.
  response.writeHead(result.statusCode ?? 200, headers);
  response.end(method === 'HEAD' ? undefined : body);
}

function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + 29_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => deadline - Date.now(),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
