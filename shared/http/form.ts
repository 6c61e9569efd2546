import { oauthError } from './errors';

/**
 * The form body of the OAuth endpoints (application/x-www-form-urlencoded; empty is allowed). A
 * parameter given twice is refused: RFC 6749 §3.2 says parameters MUST NOT be included more than
 * once, and taking either value would let a proxy and this service read different requests.
 */
export function readForm(contentType: string | undefined, body: unknown): URLSearchParams {
  if (body !== undefined && body !== '' && !/^application\/x-www-form-urlencoded\b/i.test(contentType ?? '')) {
    throw oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
  }
  const form = new URLSearchParams(typeof body === 'string' ? body : '');
  const names = [...form.keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) throw oauthError(400, 'invalid_request', `The parameter ${repeated} is given more than once.`);
  return form;
}
