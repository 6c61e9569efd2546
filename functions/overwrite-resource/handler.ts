import { endpoint, ok } from '../../shared/http/endpoint';
import { idempotencyKeys } from '../../shared/http/idempotency-keys';
import { jsonBody } from '../../shared/http/json-body-pipeline';
import { idempotencyRecords, resourceEditService } from '../../shared/composition-root';
import { overwriteResource } from './endpoint';

/** PATCH /{projectKey}/resource — overwrite the resource named by the draft's key (200), else 404. */
export const handler = endpoint(overwriteResource, async ({ projectKey, body }) =>
  ok(await resourceEditService().overwrite(projectKey, body)),
  jsonBody,
  idempotencyKeys(idempotencyRecords),
);
