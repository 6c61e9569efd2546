import type middy from '@middy/core';
import { requestEntityTooLarge } from '../errors';
import type { ApiEvent } from '../api-types';

/** Refuses bodies over `limitBytes` (decoded size) before anything parses them. */
export function bodyLimit(limitBytes: number): middy.MiddlewareObj<ApiEvent> {
  return {
    before: ({ event }) => {
      if (event.body === undefined) return;
      const size = event.isBase64Encoded ? Buffer.byteLength(event.body, 'base64') : Buffer.byteLength(event.body);
      if (size > limitBytes) throw requestEntityTooLarge(limitBytes);
    },
  };
}
