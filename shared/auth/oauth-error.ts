/** The error codes of RFC 6749 §5.2. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope';

/**
 * A refusal of the OAuth endpoints (token, introspection), by its RFC 6749 code and a description
 * for the client. The HTTP layer renders it (shared/http/errors.ts): 401 for `invalid_client`.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
  }
}
