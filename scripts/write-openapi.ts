import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildOpenApiDocument, serializeOpenApi } from '../shared/http/openapi';

/** `npm run openapi`: writes the OpenAPI document to openapi.json at the repository root. */
const target = join(import.meta.dirname, '..', 'openapi.json');
await writeFile(target, serializeOpenApi(buildOpenApiDocument()));
console.log(`wrote ${target}`);
