/** How long API Gateway (and the local gateway) may reuse an authorizer verdict for the same Authorization header. Safe to cache: the verdict says only what the token says. */
export const AUTHORIZER_CACHE_TTL_SECONDS = 300;
export const AUTHORIZER_IDENTITY_HEADER = 'authorization';

/** How each refusal of the authorizer begins its log line (`token refused: <reason>`); the stack's AuthorizerRefusals metric filter counts the lines that begin so. */
export const AUTHORIZER_REFUSAL_MESSAGE = 'token refused';
