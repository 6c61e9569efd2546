import { describe, expect, it } from 'vitest';
import { OAuthError } from '../../../shared/auth/oauth-error';
import {
  DomainError,
  DuplicateKeyError,
  InvalidInputError,
  InvalidJsonInputError,
  InvalidOperationError,
  RequestEntityTooLargeError,
  ResourceNotFoundError,
  StoreUnavailableError,
  UnsupportedMediaTypeError,
  VersionConflictError,
} from '../../../shared/domain/errors';
import { queryError } from '../../../shared/domain/query/query-error';
import { syntaxError } from '../../../shared/domain/search/search-error';
import { ValidationError } from '../../../shared/domain/validation';
import { ApiError, toApiError } from '../../../shared/http/errors';

/** toApiError is the one place where a failure becomes an HTTP answer: status, body, headers. */
describe('toApiError: the HTTP answer to every failure', () => {
  it.each([
    ['InvalidInput', new InvalidInputError('no'), 400],
    ['InvalidJsonInput', new InvalidJsonInputError('Unexpected token'), 400],
    ['InvalidOperation', new InvalidOperationError('not now'), 400],
    ['InvalidOperation, until the state changes', new InvalidOperationError('not yet', { untilStateChanges: true }), 409],
    ['ResourceNotFound', new ResourceNotFoundError("The resource with id 'x'"), 404],
    ['ConcurrentModification', new VersionConflictError(1, 2), 409],
    ['DuplicateField', new DuplicateKeyError('k'), 400],
    ['RequestEntityTooLarge', new RequestEntityTooLargeError(10), 413],
    ['UnsupportedMediaType', new UnsupportedMediaTypeError('application/json', 'text/plain'), 415],
    ['NotFound', new DomainError([{ code: 'NotFound', message: 'No endpoint matches.' }]), 404],
    ['ExtensionBadResponse', new DomainError([{ code: 'ExtensionBadResponse', message: 'bad', action: 'a' }]), 502],
    ['ExtensionNoResponse', new DomainError([{ code: 'ExtensionNoResponse', message: 'late', action: 'a' }]), 504],
  ])('answers a domain %s with its status and its error objects unchanged', (_, error, status) => {
    const answer = toApiError(error);
    expect(answer.statusCode).toBe(status);
    expect(answer.body).toEqual({ statusCode: status, message: error.message, errors: error.errors });
    expect(answer.headers).toEqual({});
  });

  it('keeps every error object of a validation error, in order', () => {
    const errors: ValidationError['errors'] = [
      { code: 'RequiredField', message: 'A value is required for field key.', field: 'key' },
      { code: 'InvalidField', message: 'bad', field: 'version', invalidValue: -1 },
    ];
    expect(toApiError(new ValidationError(errors)).body).toEqual({ statusCode: 400, message: errors[0].message, errors });
  });

  it('names the conflicting versions in the ConcurrentModification message, and the current one as a field', () => {
    expect(toApiError(new VersionConflictError(1, 2)).errors[0]).toEqual({
      code: 'ConcurrentModification',
      message: 'Object version 1 does not match the current version 2.',
      currentVersion: 2,
    });
    expect(toApiError(new VersionConflictError(undefined, undefined)).errors[0]).toEqual({
      code: 'ConcurrentModification',
      message: 'Object was modified concurrently. Please retry.',
    });
  });

  it('answers query and search errors as 400 InvalidInput with their message', () => {
    const query = queryError('where', 'Unexpected token', { column: 4 });
    expect(toApiError(query).body).toEqual({ statusCode: 400, message: query.message, errors: [{ code: 'InvalidInput', message: query.message }] });
    expect(toApiError(syntaxError({ parameter: 'filter', text: 'x' }, 'Expected a colon', 2)).statusCode).toBe(400);
  });

  it('answers an unavailable store as 503 OverCapacity with Retry-After, without its cause', () => {
    const answer = toApiError(new StoreUnavailableError(new Error('ThrottlingException on table secret-table')));
    expect(answer.statusCode).toBe(503);
    expect(answer.headers).toEqual({ 'Retry-After': '1' });
    expect(JSON.stringify(answer.body)).not.toContain('secret-table');
    expect(answer.errors[0].code).toBe('OverCapacity');
  });

  it('answers OAuth refusals in the RFC 6749 shape: 401 with a Basic challenge for invalid_client, else 400', () => {
    const client = toApiError(new OAuthError('invalid_client', 'Client authentication failed.'));
    expect(client.statusCode).toBe(401);
    expect(client.headers).toEqual({ 'WWW-Authenticate': 'Basic realm="oauth"' });
    expect(client.body).toMatchObject({ error: 'invalid_client', error_description: 'Client authentication failed.' });
    expect(toApiError(new OAuthError('invalid_scope', 'no')).statusCode).toBe(400);
  });

  it('passes an ApiError through and answers anything else as 500 General without internals', () => {
    const apiError = new ApiError(405, [{ code: 'MethodNotAllowed', message: 'no' }]);
    expect(toApiError(apiError)).toBe(apiError);
    const unknown = toApiError(new TypeError('cannot read properties of undefined (reading secret)'));
    expect(unknown.statusCode).toBe(500);
    expect(unknown.errors).toEqual([{ code: 'General', message: 'An unexpected error occurred. Please retry later.' }]);
  });
});
