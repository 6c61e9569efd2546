/**
 * The names of the error answers, as declarations list them and components/responses names them.
 * Each has its entry (status, description, schema, example) in the error catalogue,
 * error-responses.ts, which does not compile without it; kept apart so declarations depend on the
 * names only, never on the catalogue and what builds its examples.
 */
export type ErrorResponseName =
  | 'BadRequest'
  | 'OAuthBadRequest'
  | 'InvalidClient'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'RouteNotFound'
  | 'MethodNotAllowed'
  | 'Conflict'
  | 'UploadNotReceived'
  | 'IdempotencyKeyInFlight'
  | 'PayloadTooLarge'
  | 'UnsupportedMediaType'
  | 'IdempotencyKeyReused'
  | 'TooManyRequests'
  | 'RequestHeaderFieldsTooLarge'
  | 'InternalServerError'
  | 'BadGateway'
  | 'ServiceUnavailable'
  | 'GatewayTimeout';
