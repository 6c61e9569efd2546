import { readOpenApiDocument } from '../../shared/http/api-docs';
import { endpoint } from '../../shared/http/endpoint';
import { getOpenApi } from './endpoint';

/**
 * GET /openapi.json — the OpenAPI 3.1 document of this API: the one `npm run openapi` derives from
 * the endpoint declarations and the repository holds (a test keeps it fresh), read once per cold
 * start from beside the bundle. Serving the file, not building it, keeps every other endpoint's
 * declaration out of this bundle.
 */
export const handler = endpoint(getOpenApi, async () => ({
  statusCode: 200,
  rawBody: readOpenApiDocument(),
  headers: { 'content-type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
}));
