import type { ApiResponse, ApiResult } from './api-types';

/** Every answer is JSON unless the handler gives a raw body; HEAD answers have no body. */
export function render(response: ApiResponse, method: string): ApiResult {
  if (response.rawBody !== undefined) {
    return { statusCode: response.statusCode, headers: { ...response.headers }, body: method === 'HEAD' ? '' : response.rawBody };
  }
  const hasBody = method !== 'HEAD' && response.body !== undefined;
  return {
    statusCode: response.statusCode,
    headers: { ...(hasBody ? { 'content-type': 'application/json; charset=utf-8' } : {}), ...response.headers },
    body: hasBody ? JSON.stringify(response.body) : '',
  };
}
