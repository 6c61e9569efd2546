import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { CORS_POLICY, UPLOAD_CORS_POLICY } from '../shared/http/cors';

/** What CORS reads of a request (the gateway's GatewayRequest has more). */
interface CorsRequest {
  method: string;
  headers: Record<string, string | string[] | undefined>;
}
type Answer<R extends CorsRequest> = (request: R) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * CORS in local mode, as API Gateway does it for an HTTP API with `corsPreflight` (infra/stack.ts):
 * it answers a preflight (OPTIONS with Origin and Access-Control-Request-Method) itself with 204,
 * before any route or authorizer; to every other request from an allowed origin it adds the
 * allow-origin and expose headers. Nothing changes when no origin is configured (CORS_ORIGINS).
 */
export function withCors<R extends CorsRequest>(answer: Answer<R>, origins: readonly string[]): Answer<R> {
  if (origins.length === 0) return answer;
  const allowedOrigin = (origin: string | undefined) => (origin && (origins.includes('*') ? '*' : origins.includes(origin) ? origin : undefined)) || undefined;

  return async (request) => {
    const origin = header(request, 'origin');
    const allowed = allowedOrigin(origin);
    if (request.method.toUpperCase() === 'OPTIONS' && origin && header(request, 'access-control-request-method')) {
      return { statusCode: 204, headers: allowed ? preflightHeaders(allowed) : { vary: 'Origin' } };
    }
    const result = await answer(request);
    if (!allowed) return result;
    return {
      ...result,
      headers: {
        ...result.headers,
        'access-control-allow-origin': allowed,
        'access-control-expose-headers': CORS_POLICY.exposeHeaders.join(','),
        vary: 'Origin',
      },
    };
  };
}

function preflightHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': CORS_POLICY.allowMethods.join(','),
    'access-control-allow-headers': CORS_POLICY.allowHeaders.join(','),
    'access-control-max-age': String(CORS_POLICY.maxAgeSeconds),
    vary: 'Origin',
  };
}

function header(request: CorsRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
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
