import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { endpoints, fallback } from '../functions/endpoints';
import { deriveResourceJsonSchema } from '../shared/domain/resource';
import { buildOpenApiDocument, serializeOpenApi } from '../shared/http/openapi';

/**
 * `npm run openapi`: writes what is derived from the endpoint declarations and schemas for functions
 * that must not bundle them all: the OpenAPI document (openapi.json: get-openapi serves it, and the
 * bundler gives every function its paths and methods for 405s) and the resource's JSON Schema the
 * query engines read. Tests keep them fresh.
 */
const root = join(import.meta.dirname, '..');
const written = {
  'openapi.json': serializeOpenApi(buildOpenApiDocument(endpoints, fallback)),
  'shared/domain/resource-json-schema.json': `${JSON.stringify(deriveResourceJsonSchema(), null, 2)}\n`,
};
for (const [file, text] of Object.entries(written)) {
  await writeFile(join(root, file), text);
  console.log(`wrote ${file}`);
}

