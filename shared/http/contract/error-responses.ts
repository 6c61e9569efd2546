import { DomainError, ResourceNotFoundError } from '../../domain/errors';
import { MAX_IMAGE_BYTES } from '../../domain/images/image-file';
import { IDEMPOTENCY_RECORD_SECONDS, JSON_BODY_LIMIT_BYTES, LOCAL_HEADER_LIMIT_BYTES } from '../../domain/limits';
import * as answers from '../errors';
import type { SchemaName } from './schemas';

/**
 * The error catalogue: every error answer the service gives, by the name components/responses
 * lists it under, with an example built by the code that answers it. Declarations name their
 * errors from here by type only (`ErrorResponseName`), so no Lambda bundles the catalogue; the
 * document renders it.
 */

export interface ErrorResponseSpec {
  status: number;
  description: string;
  schema: SchemaName;
  example: unknown;
  /** Headers it carries besides X-Correlation-ID. */
  headers?: Record<string, { description: string; schema: { type: 'integer' } }>;
}

export const errorResponses = {
  BadRequest: {
    status: 400,
    description:
      'The request is not acceptable: `InvalidInput` (query parameter, predicate, unknown field, fuzzyLevel too high), `InvalidJsonInput`, `InvalidField`, `RequiredField`, `DuplicateField`, `InvalidOperation`, or `QueryTimedOut` (a query or search that needs more than its budget: narrow it with an indexed field in `where` or, for search, in `filter.query`; ask `withTotal=false`, or page by id).',
    schema: 'ErrorResponse',
    example: answers.invalidInput("The query parameter 'limit' must be an integer from 0 to 500, got 'ten'.").body,
  },
  OAuthBadRequest: {
    status: 400,
    description: 'RFC 6749 §5.2: `invalid_request`, `unsupported_grant_type` or `invalid_scope`.',
    schema: 'OAuthErrorResponse',
    example: answers.oauthError(400, 'invalid_scope', 'The client may not be granted: manage_test:other.').body,
  },
  InvalidClient: {
    status: 401,
    description: '`invalid_client`: client authentication failed (unknown client, wrong secret, revoked, or locked after repeated failures).',
    schema: 'OAuthErrorResponse',
    example: answers.oauthError(401, 'invalid_client', 'Client authentication failed.').body,
  },
  Unauthorized: {
    status: 401,
    description:
      '`invalid_token`: the bearer token is missing, malformed, expired or not issued by this service. In AWS a request without an `Authorization` header is refused by API Gateway itself, with its own body `{"message": "Unauthorized"}`.',
    schema: 'GatewayOrErrorResponse',
    example: answers.invalidToken().body,
  },
  Forbidden: {
    status: 403,
    description: '`insufficient_scope`: the token holds none of the scopes this operation needs for the path\'s project; the message names them.',
    schema: 'ErrorResponse',
    example: answers.insufficientScope(['manage_test:demo']).body,
  },
  NotFound: {
    status: 404,
    description: '`ResourceNotFound`: no such resource in the project (or no binding for an extension action, or no open image upload).',
    schema: 'ErrorResponse',
    example: answers.fromDomainError(new ResourceNotFoundError("The resource with id '7b5f6d0c-4b8e-4c50-9d0a-3f1b2a4c5d6e'")).body,
  },
  RouteNotFound: {
    status: 404,
    description: '`NotFound`: no endpoint serves this method and path.',
    schema: 'ErrorResponse',
    example: answers.notFoundRoute('GET', '/demo/unknown').body,
  },
  MethodNotAllowed: {
    status: 405,
    description: '`MethodNotAllowed`: the path exists for other methods, listed in the `Allow` header.',
    schema: 'ErrorResponse',
    example: answers.methodNotAllowed('DELETE', '/demo/resource', ['GET', 'HEAD', 'POST', 'PATCH', 'PUT']).body,
  },
  Conflict: {
    status: 409,
    description: '`ConcurrentModification`: the expected version is not the current one (`currentVersion` says which is), or concurrent writers collided; nothing was applied.',
    schema: 'ErrorResponse',
    example: answers.concurrentModification(1, 2).body,
  },
  UploadNotReceived: {
    status: 409,
    description: '`InvalidOperation`: nothing was uploaded to the upload URL yet; the upload stays open until it expires.',
    schema: 'ErrorResponse',
    example: answers.invalidOperation('The image has not been uploaded yet: PUT it to the upload URL with the headers given, then complete the upload.', 409).body,
  },
  IdempotencyKeyInFlight: {
    status: 409,
    description: '`InvalidOperation`: the first request with this `Idempotency-Key` is still being processed; retry once it has been answered.',
    schema: 'ErrorResponse',
    example: answers.idempotencyKeyInFlight().body,
  },
  PayloadTooLarge: {
    status: 413,
    description: `\`RequestEntityTooLarge\`: JSON bodies are limited to ${JSON_BODY_LIMIT_BYTES} bytes, images to ${MAX_IMAGE_BYTES} bytes. On every operation, a request over API Gateway's 10 MB, or whose event passes Lambda's 6,291,456 bytes, never reaches the service: API Gateway answers it, with its own body \`{"message": …}\`.`,
    schema: 'GatewayOrErrorResponse',
    example: answers.requestEntityTooLarge(JSON_BODY_LIMIT_BYTES).body,
  },
  UnsupportedMediaType: {
    status: 415,
    description: '`UnsupportedMediaType`: the body is not of the content type this operation takes.',
    schema: 'ErrorResponse',
    example: answers.unsupportedMediaType('application/json', 'text/plain').body,
  },
  IdempotencyKeyReused: {
    status: 422,
    description: `\`InvalidInput\`: this \`Idempotency-Key\` was sent in the last ${IDEMPOTENCY_RECORD_SECONDS / 3600} hours with another body or query string, by this client to this method and path; a new request needs a new key.`,
    schema: 'ErrorResponse',
    example: answers.idempotencyKeyReused().body,
  },
  TooManyRequests: {
    status: 429,
    description:
      'API Gateway throttles the API (every route, and the OAuth routes more strictly) and answers 429 itself, with its own body `{"message": "Too Many Requests"}` and no `Retry-After`: retry with exponential backoff. The OAuth routes also answer 429 `TooManyRequests`, with `Retry-After`, to every attempt of a client from an address that failed to authenticate as it 10 times in 15 minutes.',
    schema: 'GatewayOrErrorResponse',
    example: { message: 'Too Many Requests' },
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying (the brute-force brake only).', schema: { type: 'integer' } } },
  },
  RequestHeaderFieldsTooLarge: {
    status: 431,
    description: `The request line and headers (a long URL counts) are over the limit: in AWS, API Gateway's 10,240 bytes, refused by API Gateway itself with its own status and body; in local mode ${LOCAL_HEADER_LIMIT_BYTES} bytes, answered 431 \`RequestHeaderFieldsTooLarge\`. Send long predicates in fewer bytes, or page by id.`,
    schema: 'GatewayOrErrorResponse',
    example: answers.requestHeaderFieldsTooLarge(LOCAL_HEADER_LIMIT_BYTES).body,
  },
  InternalServerError: { status: 500, description: '`General`: an unexpected failure; the body holds no internals.', schema: 'ErrorResponse', example: answers.general().body },
  BadGateway: {
    status: 502,
    description: '`ExtensionBadResponse`: the handler bound to the extension action gave no usable JSON answer.',
    schema: 'ErrorResponse',
    example: answers.fromDomainError(
      new DomainError([{ code: 'ExtensionBadResponse', message: "The extension bound to 'namespace-action' gave no usable answer: The extension did not answer JSON.", action: 'namespace-action' }]),
    ).body,
  },
  ServiceUnavailable: {
    status: 503,
    description:
      '`OverCapacity`: the store is throttling, nothing was done; `ServiceUnavailable`: no answer in time (the store silent, or the request\'s deadline passed), so a write may or may not have been applied — read the resource by id or key, or retry with the same `Idempotency-Key`. Either way, retry after the `Retry-After` seconds.',
    schema: 'ErrorResponse',
    example: answers.overCapacity().body,
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } },
  },
  GatewayTimeout: {
    status: 504,
    description: '`ExtensionNoResponse`: the handler bound to the extension action did not answer in time.',
    schema: 'ErrorResponse',
    example: answers.fromDomainError(
      new DomainError([{ code: 'ExtensionNoResponse', message: "The extension bound to 'namespace-action' did not answer within 2000 ms.", action: 'namespace-action' }]),
    ).body,
  },
} satisfies Record<string, ErrorResponseSpec>;

export type ErrorResponseName = keyof typeof errorResponses;
