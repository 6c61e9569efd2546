import { endpoint, ok } from '../../shared/http/endpoint';
import { idempotencyKeys } from '../../shared/http/idempotency-keys';
import { jsonBody } from '../../shared/http/json-body-pipeline';
import { idempotencyRecords, resourceEditService } from '../../shared/composition-root';
import { updateResource } from './endpoint';

/** POST /{projectKey}/resource/{id} — apply `{version, actions}` in order; 409 at a stale version. */
export const handler = endpoint(updateResource, async ({ projectKey, path, body }) =>
  ok(await resourceEditService().update(projectKey, path.id, body)),
  jsonBody,
  idempotencyKeys(idempotencyRecords),
);
