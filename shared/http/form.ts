import { oauthError } from './errors';

/** The form body of the OAuth endpoints (application/x-www-form-urlencoded; empty is allowed). */
export function readForm(contentType: string | undefined, body: unknown): URLSearchParams {
  if (body !== undefined && body !== '' && !/^application\/x-www-form-urlencoded\b/i.test(contentType ?? '')) {
    throw oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
  }
  return new URLSearchParams(typeof body === 'string' ? body : '');
}
