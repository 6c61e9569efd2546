import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { endpoints, fallback } from '../functions/endpoints';
import { buildOpenApiDocument, serializeOpenApi } from '../shared/http/openapi';
import { serializeRouteKeys } from '../shared/http/route-table';

/**
 * `npm run openapi`: writes what is derived from the endpoint declarations for functions that must
 * not bundle them all: the OpenAPI document (openapi.json, served by get-openapi) and the route
 * keys the not-found fallback tells 404 from 405 with. Tests keep both fresh.
 */
const root = join(import.meta.dirname, '..');
const written = {
  'openapi.json': serializeOpenApi(buildOpenApiDocument(endpoints, fallback)),
  'functions/route-not-found/route-keys.json': serializeRouteKeys(endpoints),
};
for (const [file, text] of Object.entries(written)) {
  await writeFile(join(root, file), text);
  console.log(`wrote ${file}`);
}

