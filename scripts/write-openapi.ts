import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { endpoints, fallback } from '../functions/endpoints';
import { deriveResourceJsonSchema } from '../shared/domain/resource';
import { buildOpenApiDocument, serializeOpenApi } from '../shared/http/openapi';
import { serializeRouteKeys } from '../shared/http/route-table';

/**
 * `npm run openapi`: writes what is derived from the endpoint declarations and schemas for functions
 * that must not bundle them all: the OpenAPI document (openapi.json, served by get-openapi), the
 * route keys the not-found fallback tells 404 from 405 with, and the resource's JSON Schema the
 * query engines read. Tests keep them fresh.
 */
const root = join(import.meta.dirname, '..');
const written = {
  'openapi.json': serializeOpenApi(buildOpenApiDocument(endpoints, fallback)),
  'shared/http/contract/route-keys.json': serializeRouteKeys(endpoints),
  'shared/domain/resource-json-schema.json': `${JSON.stringify(deriveResourceJsonSchema(), null, 2)}\n`,
};
for (const [file, text] of Object.entries(written)) {
  await writeFile(join(root, file), text);
  console.log(`wrote ${file}`);
}

