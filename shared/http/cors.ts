/**
 * Which browser origins may call the API and PUT to its presigned upload URLs (CORS). Nothing is
 * allowed unless configured: `-c corsOrigins=…` in AWS (API Gateway's preflight and headers, the
 * images bucket's CORS rules), `CORS_ORIGINS` in local mode (the local gateway and the S3 emulator).
 * Tokens travel in the Authorization header, never in cookies: no credentials mode.
 */
export const CORS_POLICY = {
  allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  allowHeaders: ['authorization', 'content-type', 'x-correlation-id', 'idempotency-key'],
  exposeHeaders: ['x-correlation-id', 'www-authenticate'],
  maxAgeSeconds: 3600,
} as const;

/** The headers a browser sends with the presigned PUT (the signed ones it may set; it sets content-length itself). */
export const UPLOAD_CORS_POLICY = {
  allowMethods: ['PUT'],
  allowHeaders: ['content-type', 'cache-control', 'if-none-match'],
  exposeHeaders: ['etag'],
  maxAgeSeconds: 3600,
} as const;

/**
 * `https://shop.example.com,http://localhost:3000` → the list; `*` allows any origin. Anything that
 * is not a bare origin (a path, a trailing slash, no scheme) is refused rather than half-applied.
 */
export function parseCorsOrigins(value: string | undefined): string[] {
  const origins = (value ?? '').split(',').map((origin) => origin.trim()).filter(Boolean);
  for (const origin of origins) {
    if (origin !== '*' && !/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin)) {
      throw new Error(`CORS origin '${origin}' is not an origin: write scheme://host[:port] (no path, no trailing slash), or *.`);
    }
  }
  return origins;
}

/** What CORS reads of a request: its method and headers (names in lower case). */
export interface CorsRequest {
  method: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The origin a request may be answered for, of those allowed; undefined when none. */
export function allowedOrigin(origins: readonly string[], origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  return origins.includes('*') ? '*' : origins.includes(origin) ? origin : undefined;
}

/**
 * The answer to a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method), as API
 * Gateway gives it for `corsPreflight`: 204, with the allow headers when the origin is allowed.
 * Undefined when the request is no preflight or no origin is configured.
 */
export function preflightAnswer(origins: readonly string[], request: CorsRequest): { statusCode: 204; headers: Record<string, string> } | undefined {
  const origin = headerOf(request, 'origin');
  if (origins.length === 0 || request.method.toUpperCase() !== 'OPTIONS' || !origin || !headerOf(request, 'access-control-request-method')) return undefined;
  const allowed = allowedOrigin(origins, origin);
  if (!allowed) return { statusCode: 204, headers: { vary: 'Origin' } };
  return {
    statusCode: 204,
    headers: {
      'access-control-allow-origin': allowed,
      'access-control-allow-methods': CORS_POLICY.allowMethods.join(','),
      'access-control-allow-headers': CORS_POLICY.allowHeaders.join(','),
      'access-control-max-age': String(CORS_POLICY.maxAgeSeconds),
      vary: 'Origin',
    },
  };
}

function headerOf(request: CorsRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}
