import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { allowedOrigin, CORS_POLICY, preflightAnswer, UPLOAD_CORS_POLICY, type CorsRequest } from '../shared/http/cors';

type Answer<R extends CorsRequest> = (request: R) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * CORS in local mode, as API Gateway does it for an HTTP API with `corsPreflight` (infra/stack.ts):
 * it answers a preflight (OPTIONS with Origin and Access-Control-Request-Method) itself with 204,
 * before any route or authorizer; to every other request from an allowed origin it adds the
 * allow-origin and expose headers. Nothing changes when no origin is configured (CORS_ORIGINS).
 */
export function withCors<R extends CorsRequest>(answer: Answer<R>, origins: readonly string[]): Answer<R> {
  if (origins.length === 0) return answer;
  return async (request) => {
    const preflight = preflightAnswer(origins, request);
    if (preflight) return preflight;
    const result = await answer(request);
    const origin = request.headers.origin;
    const allowed = allowedOrigin(origins, Array.isArray(origin) ? origin.join(',') : origin);
    if (!allowed) return result;
    return {
      ...result,
      headers: { ...result.headers, 'access-control-allow-origin': allowed, 'access-control-expose-headers': CORS_POLICY.exposeHeaders.join(','), vary: 'Origin' },
    };
  };
}

/** The images bucket's CORS rules for the S3 emulator (s3rver), the same rule the stack gives the bucket in AWS. */
export function uploadCorsXml(origins: readonly string[]): string {
  const many = (tag: string, values: readonly (string | number)[]) => values.map((value) => `<${tag}>${value}</${tag}>`).join('');
  return (
    '<CORSConfiguration><CORSRule>' +
    many('AllowedOrigin', origins) +
    many('AllowedMethod', UPLOAD_CORS_POLICY.allowMethods) +
    many('AllowedHeader', UPLOAD_CORS_POLICY.allowHeaders) +
    many('ExposeHeader', UPLOAD_CORS_POLICY.exposeHeaders) +
    many('MaxAgeSeconds', [UPLOAD_CORS_POLICY.maxAgeSeconds]) +
    '</CORSRule></CORSConfiguration>'
  );
}
