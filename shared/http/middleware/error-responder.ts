import type middy from '@middy/core';
import { logger } from '../../observability/logger';
import { invalidJsonInput, toApiError, type ApiError } from '../errors';
import type { ApiEvent, ApiResult } from '../api-types';
import { render } from '../render';

/**
 * Renders every failure as a commercetools error body. Known refusals keep their status;
 * the JSON body parser's complaints become 400 InvalidJsonInput; anything unexpected is logged and answered
 * as a 500 `General` with no internals in the body.
 */
export function errorResponder(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  return {
    onError: (request) => {
      const method = request.event.requestContext?.http?.method ?? 'GET';
      const error = apiErrorOf(request.error, method);
      if (error.statusCode >= 500) logger.error('request failed', { error: request.error as Error });
      request.response = render({ statusCode: error.statusCode, body: error.body, headers: error.headers }, method);
    },
  };
}

interface BodyParserError {
  cause?: { package?: string; message?: string };
  message?: string;
}

/** The answer to a failure of this request: the request line names its code (observe.ts). */
export function apiErrorOf(error: unknown, method?: string): ApiError {
  const parserError = error as BodyParserError | undefined;
  // jsonContentType() refused other content types already: what the parser throws is about the JSON.
  if (parserError?.cause?.package === '@middy/http-json-body-parser') {
    return invalidJsonInput(parserError.cause.message ?? 'The request body is empty.');
  }
  return toApiError(error, method);
}
