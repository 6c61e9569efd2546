import { endpoint } from '../../shared/http/endpoint';
import { idempotencyHashOf, idempotencyKeys } from '../../shared/http/idempotency-keys';
import { jsonBody } from '../../shared/http/json-body-pipeline';
import { idempotencyRecords, resourceEditService } from '../../shared/composition-root';
import { putResource } from './endpoint';

/** PUT /{projectKey}/resource — create (201), or overwrite the resource holding the draft's key (200). */
export const handler = endpoint(putResource, async (request) => {
  const { resource, created } = await resourceEditService().upsert(request.projectKey, request.body, { requestHash: idempotencyHashOf(request) });
  return { statusCode: created ? 201 : 200, body: resource };
}, jsonBody, idempotencyKeys(idempotencyRecords));
