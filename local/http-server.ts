import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { LOCAL_HEADER_LIMIT_BYTES } from '../shared/domain/limits';
import { invalidInput, methodNotAllowed, notFoundRoute, requestEntityTooLarge, requestHeaderFieldsTooLarge, type ApiError } from '../shared/http/errors';
import { CORRELATION_ID_HEADER, correlationIdOf } from '../shared/http/middleware/correlation-id';
import { GATEWAY_PAYLOAD_LIMIT_BYTES, isApiError, refusal, type Gateway } from './gateway';
import { requestTarget } from './lambda-events';

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
 * The gateway over HTTP/1.1 (node:http), not yet listening: each request's body read (up to
 * API Gateway's payload limit), answered by the gateway and written back; what Node's parser
 * refuses is answered in the service's error shape too. `onAnswered` is told of every answer,
 * for the line `npm start` prints.
 */
export function gatewayServer(gateway: Gateway, onAnswered?: (answer: AnsweredRequest) => void): Server {
  const server = createServer((request, response) => void handle(gateway, request, response, onAnswered));
  server.on('clientError', (error: ParserError, socket: Duplex) => answerUnparsed(gateway, error, socket));
  return server;
}

async function handle(gateway: Gateway, request: IncomingMessage, response: ServerResponse, onAnswered?: (answer: AnsweredRequest) => void): Promise<void> {
  const started = performance.now();
  const method = request.method ?? 'GET';
  // What was answered, for onAnswered: `send` writes headers with writeHead, which getHeader does not see.
  let answered: APIGatewayProxyStructuredResultV2 | undefined;
  if (onAnswered) {
    response.once('finish', () => {
      const code = answered && refusalCodeOf(answered);
      onAnswered({
        method,
        path: (request.url ?? '/').split('?')[0]!,
        status: response.statusCode,
        milliseconds: Math.round(performance.now() - started),
        correlationId: String(headerOf(answered, CORRELATION_ID_HEADER) ?? ''),
        ...(code ? { code } : {}),
      });
    });
  }
  const body = await readBody(request).catch((error: unknown) => error as ApiError);
  if (isApiError(body)) {
    answered = refusal(body, request.headers, randomUUID());
    send(response, method, answered);
    return;
  }
  answered = await gateway.answer({
    method,
    url: request.url ?? '/',
    headers: request.headers,
    body,
    protocol: `HTTP/${request.httpVersion}`,
    sourceIp: request.socket.remoteAddress,
  });
  try {
    send(response, method, answered);
  } catch (error) {
    // A response that cannot be written (e.g. an invalid header) must not end the whole stack.
    console.error(error);
    if (!response.headersSent) send(response, method, refusal(undefined, request.headers, String(answered.headers?.['apigw-requestid'])));
    else response.destroy();
  }
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

type ParserError = Error & { code?: string; rawPacket?: Buffer };

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
function answerUnparsed(gateway: Gateway, error: ParserError, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const refused = unparsedRequestError(gateway, error);
  // An answer to HEAD has no body (RFC 9110 §9.3.2): bytes after its headers are read as the next
  // answer, and clients fail on them. Headers only, with content-length 0, as `send` answers HEAD.
  const body = methodOfRawRequest(error.rawPacket) === 'HEAD' ? '' : JSON.stringify(refused.body);
  const head = [
    `HTTP/1.1 ${refused.statusCode} ${STATUS_CODES[refused.statusCode]}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `${CORRELATION_ID_HEADER}: ${correlationIdOf(undefined)}`,
    ...Object.entries(refused.headers).map(([name, value]) => `${name}: ${value}`),
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

function unparsedRequestError(gateway: Gateway, error: ParserError): ApiError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return requestHeaderFieldsTooLarge(LOCAL_HEADER_LIMIT_BYTES);
  }
  const requestLine = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\S+) HTTP\/1\.[01]\r?\n/.exec(error.rawPacket?.toString('latin1') ?? '');
  if (error.code === 'HPE_INVALID_METHOD' && requestLine) {
    const [, method, target] = requestLine;
    const { pathname } = requestTarget(target!);
    const allowed = gateway.allowedMethods(pathname);
    return allowed.length > 0 ? methodNotAllowed(method!, pathname, [...allowed]) : notFoundRoute(method!, pathname);
  }
  return invalidInput('The request is not valid HTTP/1.1.');
}
