import { endpoint } from '../../shared/http/endpoint';
import { idempotencyHashOf, idempotencyKeys } from '../../shared/http/idempotency-keys';
import { jsonBody } from '../../shared/http/json-body-pipeline';
import { idempotencyRecords, resourceEditService } from '../../shared/composition-root';
import { createResource } from './endpoint';

/** POST /{projectKey}/resource — create (201); a draft whose key exists updates that resource (200). */
export const handler = endpoint(createResource, async (request) => {
  const { resource, created } = await resourceEditService().create(request.projectKey, request.body, { requestHash: idempotencyHashOf(request) });
  return { statusCode: created ? 201 : 200, body: resource };
}, jsonBody, idempotencyKeys(idempotencyRecords));
