/**
 * Errors in the commercetools shape: `{statusCode, message, errors: [{code, message, ...}]}`, and
 * the one place that maps every failure to its HTTP answer (`toApiError`): the domain's refusals
 * by their code, the query languages' errors, the store's unavailability, the OAuth refusals.
 * The error middleware renders the result; anything unknown is a 500 `General` without internals.
 */
import { OAuthError } from '../auth/oauth-error';
import { BrakedError } from '../domain/auth/brute-force-brake';
import type { ErrorBody, ErrorObject } from './contract/schemas';
import {
  DomainError,
  InvalidInputError,
  InvalidJsonInputError,
  InvalidOperationError,
  NoAnswerError,
  RequestEntityTooLargeError,
  StoreUnavailableError,
  UnsupportedMediaTypeError,
  VersionConflictError,
  type ErrorCode,
} from '../domain/errors';
import { IDEMPOTENCY_RECORD_SECONDS } from '../domain/limits';
import { ParameterError } from '../domain/language/parameter-error';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errors: [ErrorObject, ...ErrorObject[]],
    /** Extra top-level fields (the OAuth endpoints add `error` and `error_description`). */
    readonly extraBody: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(errors[0].message);
    this.name = 'ApiError';
  }

  get body(): ErrorBody {
    return { statusCode: this.statusCode, message: this.message, errors: this.errors, ...this.extraBody };
  }
}

/** The status of each domain code: 400 unless listed. */
const STATUS_OF_CODE: Partial<Record<ErrorCode, number>> = {
  ResourceNotFound: 404,
  NotFound: 404,
  ConcurrentModification: 409,
  RequestEntityTooLarge: 413,
  UnsupportedMediaType: 415,
  ExtensionBadResponse: 502,
  ExtensionNoResponse: 504,
};

/** The HTTP face of each domain refusal. */
export function fromDomainError(error: DomainError): ApiError {
  const conflict = error instanceof InvalidOperationError && error.untilStateChanges;
  return new ApiError(conflict ? 409 : (STATUS_OF_CODE[error.code] ?? 400), error.errors);
}

/** The HTTP answer to any failure of a request of `method`; the error middleware renders it. */
export function toApiError(error: unknown, method = 'GET'): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return fromDomainError(error);
  if (error instanceof ParameterError) return invalidInput(error.message);
  if (error instanceof StoreUnavailableError) return overCapacity();
  if (error instanceof NoAnswerError) return serviceUnavailable(method);
  if (error instanceof BrakedError) return braked(error.message, error.retryAfterSeconds);
  if (error instanceof OAuthError) return oauthError(error.error === 'invalid_client' ? 401 : 400, error.error, error.description);
  return general();
}

const single = (statusCode: number, code: string, message: string) => new ApiError(statusCode, [{ code, message }]);

export const invalidJsonInput = (detailedErrorMessage: string) => fromDomainError(new InvalidJsonInputError(detailedErrorMessage));

export const invalidInput = (message: string) => fromDomainError(new InvalidInputError(message));

/** 400; 409 when the operation may succeed later, in another state (an image upload not sent yet). */
export const invalidOperation = (message: string, statusCode: 400 | 409 = 400) =>
  fromDomainError(new InvalidOperationError(message, { untilStateChanges: statusCode === 409 }));

export const concurrentModification = (expectedVersion: number | undefined, currentVersion: number | undefined) =>
  fromDomainError(new VersionConflictError(expectedVersion, currentVersion));

export const invalidToken = (message = 'The access token is missing, malformed, expired or not issued by this service.') =>
  new ApiError(401, [{ code: 'invalid_token', message }], { error: 'invalid_token' }, {
    'WWW-Authenticate': 'Bearer error="invalid_token"',
  });

export const insufficientScope = (anyOf: string[]) =>
  new ApiError(
    403,
    [{ code: 'insufficient_scope', message: `Insufficient scope. One of the following scopes is missing: ${anyOf.join(', ')}` }],
    { error: 'insufficient_scope' },
    // The scopes carry the path's projectKey: only RFC 6750 scope tokens may go into the header
    // (a decoded `%0A` there breaks the response), else the header names none and the body tells.
    {
      'WWW-Authenticate': anyOf.every((scope) => /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(scope))
        ? `Bearer error="insufficient_scope", scope="${anyOf.join(' ')}"`
        : 'Bearer error="insufficient_scope"',
    },
  );

export const notFoundRoute = (method: string, path: string) =>
  single(404, 'NotFound', `No endpoint matches ${method} ${path}.`);

export const methodNotAllowed = (method: string, path: string, allowed: string[]) =>
  new ApiError(405, [{ code: 'MethodNotAllowed', message: `Method ${method} is not allowed on ${path}.` }], {}, {
    Allow: allowed.join(', '),
  });

export const requestEntityTooLarge = (limitBytes: number) => fromDomainError(new RequestEntityTooLargeError(limitBytes));

export const requestHeaderFieldsTooLarge = (limitBytes: number) =>
  single(431, 'RequestHeaderFieldsTooLarge', `The request line and headers exceed the limit of ${limitBytes} bytes.`);

export const unsupportedMediaType = (expected: string, received: string | undefined) =>
  fromDomainError(new UnsupportedMediaTypeError(expected, received));

/** 422: an Idempotency-Key sent again with another body or query string (draft-ietf-httpapi-idempotency-key-header). */
export const idempotencyKeyReused = () =>
  single(422, 'InvalidInput', `The Idempotency-Key was used for another request in the last ${IDEMPOTENCY_RECORD_SECONDS / 3600} hours: a new request needs a new key.`);

/** 409: the first request with this Idempotency-Key still runs. */
export const idempotencyKeyInFlight = () =>
  invalidOperation('A request with this Idempotency-Key is still being processed: retry once it has been answered.', 409);

export const general = () => single(500, 'General', 'An unexpected error occurred. Please retry later.');

export const overCapacity = () =>
  new ApiError(503, [{ code: 'OverCapacity', message: 'The service is over capacity. Please retry later.' }], {}, {
    'Retry-After': '1',
  });

const unavailable = (message: string, retryAfterSeconds = 1) =>
  new ApiError(503, [{ code: 'ServiceUnavailable', message }], {}, { 'Retry-After': String(Math.max(1, retryAfterSeconds)) });

/** No answer in time (the store silent, or the deadline passed): a write's outcome is unknown, and the message says how to learn it. */
export const serviceUnavailable = (method: string) =>
  unavailable(
    method === 'GET' || method === 'HEAD'
      ? 'The service did not answer in time. Please retry.'
      : 'The service did not answer in time, so whether the change was made is unknown: read the resource by id or key to find out, or retry with the same Idempotency-Key.',
  );

/** The authorizer could not read the token's client (revocation undecided): its verdict is cached for `retryAfterSeconds` more. */
export const revocationUndecided = (retryAfterSeconds: number) =>
  unavailable('The access token could not be checked against its client. Please retry after the Retry-After seconds, or with a new token.', retryAfterSeconds);

/** A source braked by client authentication's brute-force brake, until its window ends. */
export const braked = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, [{ code: 'TooManyRequests', message }], {}, { 'Retry-After': String(Math.max(1, retryAfterSeconds)) });

/** RFC 6749 §5.2 errors, in the commercetools shape plus the OAuth fields clients look for. */
export const oauthError = (statusCode: 400 | 401, error: string, description: string) =>
  new ApiError(
    statusCode,
    [{ code: error, message: description }],
    { error, error_description: description },
    statusCode === 401 ? { 'WWW-Authenticate': 'Basic realm="oauth"' } : {},
  );
