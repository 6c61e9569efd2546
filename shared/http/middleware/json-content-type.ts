import type middy from '@middy/core';
import { isJsonContentType } from '../../domain/json-content-type';
import { unsupportedMediaType } from '../errors';
import type { ApiEvent } from '../api-types';

/**
 * Refuses a body that is not declared JSON (415) before the JSON parser reads it, and hands the
 * parser the media type in lower case: it compares case-sensitively, and `Application/JSON` is JSON.
 */
export function jsonContentType(): middy.MiddlewareObj<ApiEvent> {
  return {
    before: ({ event }) => {
      const contentType = event.headers?.['content-type'];
      if (!isJsonContentType(contentType)) throw unsupportedMediaType('application/json', contentType);
      const [mediaType, ...parameters] = contentType!.split(';');
      event.headers['content-type'] = [mediaType!.toLowerCase(), ...parameters].join(';');
    },
  };
}
