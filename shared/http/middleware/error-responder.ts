import type middy from '@middy/core';
import { logger } from '../../observability/logger';
import { invalidJsonInput, toApiError, unsupportedMediaType, type ApiError } from '../errors';
import type { ApiEvent, ApiResult } from '../api-types';
import { render } from '../render';

/**
 * Renders every failure as a commercetools error body. Known refusals keep their status;
 * the JSON body parser's complaints become 415/400; anything unexpected is logged and answered
 * as a 500 `General` with no internals in the body.
 */
export function errorResponder(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  return {
    onError: (request) => {
      const error = apiErrorOf(request.error, request.event);
      if (error.statusCode >= 500) logger.error('request failed', { error: request.error as Error });
      request.response = render(
        { statusCode: error.statusCode, body: error.body, headers: error.headers },
        request.event.requestContext?.http?.method ?? 'GET',
      );
    },
  };
}

interface BodyParserError {
  cause?: { package?: string; message?: string };
  message?: string;
}

/** The answer to a failure of this request: the request line names its code (observe.ts). */
export function apiErrorOf(error: unknown, event: ApiEvent): ApiError {
  const parserError = error as BodyParserError | undefined;
  if (parserError?.cause?.package === '@middy/http-json-body-parser') {
    return parserError.message === 'Unsupported Media Type'
      ? unsupportedMediaType('application/json', event.headers?.['content-type'])
      : invalidJsonInput(parserError.cause.message ?? 'The request body is empty.');
  }
  return toApiError(error);
}
