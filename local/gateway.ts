import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerWithContextResult,
  Context,
} from 'aws-lambda';
import { AUTHORIZER_CACHE_TTL_SECONDS, AUTHORIZER_IDENTITY_HEADER } from '../shared/auth/authorizer-settings';
import { FUNCTION_TIMEOUT_SECONDS } from '../shared/aws/deadline';
import type { AuthorizerContext } from '../shared/auth/principal';
import { LOCAL_HEADER_LIMIT_BYTES } from '../shared/domain/limits';
import { ApiError, general, invalidInput, invalidToken, methodNotAllowed, notFoundRoute, requestEntityTooLarge, requestHeaderFieldsTooLarge } from '../shared/http/errors';
import type { EndpointDeclaration } from '../shared/http/declaration';
import { routeMatcher } from '../shared/http/route-matcher';
import { routeTableOf } from '../shared/http/route-table';

type RouteMatcher = ReturnType<typeof routeMatcher>;
import { withCors } from './cors';

/** API Gateway refuses larger request payloads with 413. */
export const GATEWAY_PAYLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * Lambda takes at most 6,291,456 bytes of payload in a synchronous invocation: the whole event as
 * JSON, where a non-text body is base64 (4/3 of its size). A request whose event is larger never
 * reaches the function; API Gateway answers it. Its answer is not in AWS's documentation: REST APIs
 * were seen answering 413 `{"message": "Request Too Long"}`, and an HTTP API's body is not on
 * record. So, like the 10 MB refusal, the status is API Gateway's (413) and the body the
 * service's shape, whose `message` is where API Gateway's generic `{"message"}` has it.
 */
export const LAMBDA_PAYLOAD_LIMIT_BYTES = 6_291_456;

/** The bytes of the payload Lambda is invoked with for this event. */
export const lambdaPayloadBytes = (event: APIGatewayProxyEventV2): number => Buffer.byteLength(JSON.stringify(event));

/**
 * Past what the event's body takes, its other fields (request line and headers: at most 16 KB
 * here, ×6 escaped at worst) come to far less than this.
 */
const EVENT_BESIDES_BODY_BOUND_BYTES = 1024 * 1024;

/**
 * Whether Lambda would refuse the event as too large. Measured (the event serialised) only when
 * its body could come near the limit: a body's JSON takes at most 6 bytes per UTF-16 unit
 * (`\u00XX`); every other request is let through without serialising its event (≈ 10 µs each).
 */
export function exceedsLambdaPayload(event: APIGatewayProxyEventV2): boolean {
  if ((event.body?.length ?? 0) * 6 + EVENT_BESIDES_BODY_BOUND_BYTES <= LAMBDA_PAYLOAD_LIMIT_BYTES) return false;
  return lambdaPayloadBytes(event) > LAMBDA_PAYLOAD_LIMIT_BYTES;
}

const lambdaPayloadTooLarge = () =>
  new ApiError(413, [
    {
      code: 'RequestEntityTooLarge',
      message: `The request exceeds the ${LAMBDA_PAYLOAD_LIMIT_BYTES} bytes a function is invoked with (the request as JSON, a binary body base64-encoded).`,
    },
  ]);

type LambdaHandler<E, R> = (event: E, context: Context) => Promise<R>;
export type RouteHandler = LambdaHandler<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;
export type AuthorizerHandler = LambdaHandler<
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>
>;

export interface GatewayOptions {
  /** The endpoints to route to (functions/endpoints.ts), and the one that answers unmatched requests. */
  endpoints: readonly EndpointDeclaration[];
  fallback: EndpointDeclaration;
  /** The Lambda handler of an endpoint (its functions/<name>/handler.ts). */
  loadHandler: (endpoint: EndpointDeclaration) => Promise<RouteHandler>;
  authorizer: AuthorizerHandler;
  /** Told of every answer, for a readable access log. */
  onAnswered?: (answer: AnsweredRequest) => void;
  /** Browser origins allowed by CORS (local/cors.ts); none when empty. */
  corsOrigins?: readonly string[];
}

export interface AnsweredRequest {
  method: string;
  path: string;
  status: number;
  milliseconds: number;
  correlationId: string;
  /** The commercetools code of a refusal (its first error), as the request line names it in AWS. */
  code?: string;
}

/**
 * A local stand-in for API Gateway (HTTP API, payload 2.0): it routes with the endpoints' routes by
 * API Gateway's rules, runs the authorizer (with its result cache) on protected routes, turns
 * requests into the same events Lambda receives and the handlers' results back into responses.
 * Where API Gateway itself would refuse (no Authorization header, payload over 10 MB, an event over
 * Lambda's 6,291,456 bytes, no route) it answers in the service's error shape; API Gateway's own
 * bodies there are `{"message": ...}`.
 */
export function createGateway({ endpoints, fallback, loadHandler, authorizer, onAnswered, corsOrigins = [] }: GatewayOptions) {
  const matchRoute = routeMatcher(routeTableOf(endpoints));
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
      const served = 'route' in match ? match.route : { key: '$default', route: fallback.routes[0], endpoint: fallback };
      const event = toEvent(request, url, {
        requestId,
        routeKey: served.key,
        pathParameters: 'route' in match ? match.pathParameters : undefined,
      });
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
      return withRequestId(refusal(error, request.headers), requestId);
    }
  }

  const served = withCors(answer, corsOrigins);

  /** The HTTP face of `answer`, for node:http. */
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = performance.now();
    // What was answered, for the line npm start prints (send writes headers with writeHead, which getHeader does not see).
    let answered: APIGatewayProxyStructuredResultV2 | undefined;
    if (onAnswered) {
      response.once('finish', () => {
        const code = answered && refusalCodeOf(answered);
        onAnswered({
          method: request.method ?? 'GET',
          path: (request.url ?? '/').split('?')[0]!,
          status: response.statusCode,
          milliseconds: Math.round(performance.now() - started),
          correlationId: String(headerOf(answered, 'x-correlation-id') ?? ''),
          ...(code ? { code } : {}),
        });
      });
    }
    const body = await readBody(request).catch((error: unknown) => error as ApiError);
    if (isApiError(body)) {
      answered = withRequestId(refusal(body, request.headers), randomUUID());
      send(response, request.method ?? 'GET', answered);
      return;
    }
    const result = await served({
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: request.headers,
      body,
      protocol: `HTTP/${request.httpVersion}`,
      sourceIp: request.socket.remoteAddress,
    });
    answered = result;
    try {
      send(response, request.method ?? 'GET', result);
    } catch (error) {
      // A response that cannot be written (e.g. an invalid header) must not end the whole stack.
      console.error(error);
      if (!response.headersSent) send(response, request.method ?? 'GET', withRequestId(refusal(undefined, request.headers), result.headers?.['apigw-requestid'] as string));
      else response.destroy();
    }
  }

  /** For node:http's `clientError` event: what the parser refused, answered in the service's shape. */
  const answerUnparsed = (error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => answerUnparsedRequest(error, socket, matchRoute);

  return { answer: served, handle, answerUnparsed };
}

/** A header of an answer, whatever the case of its name. */
function headerOf(result: APIGatewayProxyStructuredResultV2 | undefined, name: string) {
  return Object.entries(result?.headers ?? {}).find(([header]) => header.toLowerCase() === name)?.[1];
}

/** The first error code of a refusal's commercetools body (`{ errors: [{ code }] }`); HEAD answers have none. */
function refusalCodeOf(result: APIGatewayProxyStructuredResultV2): string | undefined {
  if ((result.statusCode ?? 200) < 400 || !result.body?.startsWith('{')) return undefined;
  try {
    const code = (JSON.parse(result.body) as { errors?: { code?: unknown }[] }).errors?.[0]?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

export { LOCAL_HEADER_LIMIT_BYTES };

/**
 * Node's HTTP parser refuses some requests before the gateway sees them, answering a bare 400 or
 * 431 with no body: a request line and headers over 16 KB (a long URL counts), a method it does
 * not know (`FOO`), or bytes that are not HTTP. For node:http's `clientError` event: answers them
 * in the service's error shape instead —
 *   - over 16 KB: 431 `RequestHeaderFieldsTooLarge`;
 *   - an unknown method: what the fallback route answers for any method no route serves (405
 *     `MethodNotAllowed` with Allow when the path exists, else 404 `NotFound`);
 *   - anything else: 400 `InvalidInput`.
 * The connection is closed after the answer, as the parser cannot read on.
 */
function answerUnparsedRequest(error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex, matchRoute: RouteMatcher): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const refusal = unparsedRequestError(error, matchRoute);
  // An answer to HEAD has no body (RFC 9110 §9.3.2): bytes after its headers are read as the next
  // answer, and clients fail on them. Headers only, with content-length 0, as `send` answers HEAD.
  const body = methodOfRawRequest(error.rawPacket) === 'HEAD' ? '' : JSON.stringify(refusal.body);
  const head = [
    `HTTP/1.1 ${refusal.statusCode} ${refusal.statusCode === 431 ? 'Request Header Fields Too Large' : refusal.statusCode === 405 ? 'Method Not Allowed' : refusal.statusCode === 404 ? 'Not Found' : 'Bad Request'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `x-correlation-id: projects-${randomUUID()}`,
    ...Object.entries(refusal.headers).map(([name, value]) => `${name}: ${value}`),
    'connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * The method of a refused request, when the bytes the parser stopped on begin with its request
 * line. They are only the chunk it was reading: a request whose line arrived in an earlier chunk
 * (a client writing its request in pieces) has no method here, and is answered as GET would be.
 */
function methodOfRawRequest(rawPacket: Buffer | undefined): string | undefined {
  return /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) \S/.exec(rawPacket?.subarray(0, 40).toString('latin1') ?? '')?.[1];
}

function unparsedRequestError(error: Error & { code?: string; rawPacket?: Buffer }, matchRoute: RouteMatcher): ApiError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return requestHeaderFieldsTooLarge(LOCAL_HEADER_LIMIT_BYTES);
  }
  const requestLine = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\S+) HTTP\/1\.[01]\r?\n/.exec(error.rawPacket?.toString('latin1') ?? '');
  if (error.code === 'HPE_INVALID_METHOD' && requestLine) {
    const [, method, target] = requestLine;
    const { pathname } = requestTarget(target!);
    const match = matchRoute(method!.toUpperCase(), pathname);
    const allowed = 'allowedMethods' in match ? match.allowedMethods : [];
    return allowed.length > 0 ? methodNotAllowed(method!, pathname, allowed) : notFoundRoute(method!, pathname);
  }
  return invalidInput('The request is not valid HTTP/1.1.');
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
      time: requestTime(now),
      timeEpoch: now.getTime(),
    },
    body: request.body.length === 0 ? undefined : request.body.toString(text ? 'utf8' : 'base64'),
    isBase64Encoded: request.body.length > 0 && !text,
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDigits = (value: number) => (value < 10 ? `0${value}` : `${value}`);

/** `requestContext.time` as API Gateway writes it: `23/Nov/2026:17:30:05 +0000`. */
export function requestTime(now: Date): string {
  const date = `${twoDigits(now.getUTCDate())}/${MONTHS[now.getUTCMonth()]}/${now.getUTCFullYear()}`;
  return `${date}:${twoDigits(now.getUTCHours())}:${twoDigits(now.getUTCMinutes())}:${twoDigits(now.getUTCSeconds())} +0000`;
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

const nothing = () => undefined;

function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + FUNCTION_TIMEOUT_SECONDS * 1000;
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
    done: nothing,
    fail: nothing,
    succeed: nothing,
  };
}
