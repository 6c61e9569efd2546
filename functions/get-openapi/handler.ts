import { endpoint } from '../../shared/http/endpoint';
import { buildOpenApiDocument, type OpenApiDocument } from '../../shared/http/openapi';

let document: OpenApiDocument | undefined;

/** GET /openapi.json — the OpenAPI 3.1 document of this API, built once per cold start. */
export const handler = endpoint('get-openapi', async () => ({
  statusCode: 200,
  body: (document ??= buildOpenApiDocument()),
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
