import { randomUUID } from 'node:crypto';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerWithContextResult,
  Context,
} from 'aws-lambda';
import type { AuthorizerContext } from '../shared/auth/principal';
import { FUNCTION_TIMEOUT_SECONDS } from '../shared/aws/deadline';

/**
 * What a function receives from API Gateway (HTTP API, payload 2.0), built as API Gateway builds
 * it: the route's event, the authorizer's event, the invocation's context, and the size Lambda
 * measures the event by.
 */

type LambdaHandler<E, R> = (event: E, context: Context) => Promise<R>;
export type RouteHandler = LambdaHandler<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;
export type AuthorizerHandler = LambdaHandler<
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>
>;

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
export function requestTarget(target: string): { pathname: string; query: string } {
  const separator = target.indexOf('?');
  const pathname = separator === -1 ? target : target.slice(0, separator);
  return { pathname: pathname.startsWith('/') ? pathname : `/${pathname}`, query: separator === -1 ? '' : target.slice(separator + 1) };
}

/** Content types API Gateway passes as text; every other body arrives base64-encoded. */
const TEXT_CONTENT = /^(text\/|application\/(json|[\w.+-]+\+json|x-www-form-urlencoded|xml|javascript))/i;

/** The payload 2.0 event of a request, with what routing decided: its route key and path parameters. */
export function routeEvent(
  request: GatewayRequest,
  url: { pathname: string; query: string },
  routing: { requestId: string; routeKey: string; pathParameters?: Record<string, string> },
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && name !== 'cookie') headers[name] = headerValue(value)!;
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

/** The authorizer's event for a route's event: the same request, with the route's ARN and the identity it is cached by. */
export function authorizerEvent(event: APIGatewayProxyEventV2, identity: string): APIGatewayRequestAuthorizerEventV2 {
  const routeArn = `arn:aws:execute-api:local:000000000000:local/$default/${event.routeKey.replace(' ', '')}`;
  return { ...event, cookies: event.cookies ?? [], type: 'REQUEST', routeArn, identitySource: [identity] };
}

/** `requestContext.time` as API Gateway writes it: `23/Nov/2026:17:30:05 +0000`. */
export function requestTime(now: Date): string {
  // toUTCString: `Mon, 23 Nov 2026 17:30:05 GMT`, the day two digits.
  const [, day, month, year, time] = now.toUTCString().split(' ');
  return `${day}/${month}/${year}:${time} +0000`;
}

/** A header's value as one string: repeated headers joined with commas, as API Gateway joins them. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

const nothing = () => undefined;

/** The context of one invocation of `functionName`, its deadline the functions' timeout from now. */
export function lambdaContext(functionName: string): Context {
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

/**
 * Lambda takes at most 6,291,456 bytes of payload in a synchronous invocation: the whole event as
 * JSON, where a non-text body is base64 (4/3 of its size). A request whose event is larger never
 * reaches the function; API Gateway answers it.
 */
export const LAMBDA_PAYLOAD_LIMIT_BYTES = 6_291_456;

/** The bytes of the payload Lambda is invoked with for this event. */
export const lambdaPayloadBytes = (event: APIGatewayProxyEventV2): number => Buffer.byteLength(JSON.stringify(event));

/** Past what the event's body takes, its other fields (request line and headers: at most 16 KB here, ×6 escaped at worst) come to far less than this. */
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
