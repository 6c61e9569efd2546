/**
 * Errors in the commercetools shape: `{statusCode, message, errors: [{code, message, ...}]}`.
 * Every refusal in the service is an ApiError; the error middleware renders it, and renders
 * anything else as a 500 `General` without internals.
 */
import * as z from 'zod';

/** One problem: a code, a message, and the details its code defines (`field`, `currentVersion`, ...). */
export const ErrorObject = z.looseObject({
  code: z.string(),
  message: z.string(),
});
export type ErrorObject = z.infer<typeof ErrorObject>;

/** Every error answer: the first error's message on top, at least one error object. */
export const ErrorBody = z.looseObject({
  statusCode: z.number().int(),
  message: z.string(),
  errors: z.array(ErrorObject).min(1),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

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

const single = (statusCode: number, code: string, message: string, details: Record<string, unknown> = {}) =>
  new ApiError(statusCode, [{ code, message, ...details }]);

export const invalidJsonInput = (detailedErrorMessage: string) =>
  single(400, 'InvalidJsonInput', 'Request body does not contain valid JSON.', { detailedErrorMessage });

export const invalidInput = (message: string) => single(400, 'InvalidInput', message);

/** 400; 409 when the operation may succeed later, in another state (an image upload not sent yet). */
export const invalidOperation = (message: string, statusCode: 400 | 409 = 400) => single(statusCode, 'InvalidOperation', message);

export const resourceNotFound = (message: string) => single(404, 'ResourceNotFound', message);

/** 400, as commercetools answers a query that runs too long; the message says how to narrow it. */
export const queryTimedOut = (message: string) => single(400, 'QueryTimedOut', message);

export const concurrentModification = (expectedVersion: number | undefined, currentVersion: number | undefined) =>
  single(
    409,
    'ConcurrentModification',
    currentVersion === undefined
      ? 'Object was modified concurrently. Please retry.'
      : `Object ${expectedVersion === undefined ? '' : `version ${expectedVersion} `}does not match the current version ${currentVersion}.`,
    currentVersion === undefined ? {} : { currentVersion },
  );

export const duplicateField = (field: string, duplicateValue: unknown) =>
  single(400, 'DuplicateField', `A duplicate value '${JSON.stringify(duplicateValue)}' exists for field '${field}'.`, {
    field,
    duplicateValue,
  });

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

export const requestEntityTooLarge = (limitBytes: number) =>
  single(413, 'RequestEntityTooLarge', `The request body exceeds the limit of ${limitBytes} bytes.`);

export const unsupportedMediaType = (expected: string, received: string | undefined) =>
  single(415, 'UnsupportedMediaType', `Expected content type ${expected}, received ${received ?? 'none'}.`);

export const general = () => single(500, 'General', 'An unexpected error occurred. Please retry later.');

export const overCapacity = () =>
  new ApiError(503, [{ code: 'OverCapacity', message: 'The service is over capacity. Please retry later.' }], {}, {
    'Retry-After': '1',
  });

/** RFC 6749 §5.2 errors, in the commercetools shape plus the OAuth fields clients look for. */
export const oauthError = (statusCode: 400 | 401, error: string, description: string) =>
  new ApiError(
    statusCode,
    [{ code: error, message: description }],
    { error, error_description: description },
    statusCode === 401 ? { 'WWW-Authenticate': 'Basic realm="oauth"' } : {},
  );
