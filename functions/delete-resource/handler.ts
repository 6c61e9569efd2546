import { endpoint, ok } from '../../shared/http/endpoint';
import { idempotencyKeys } from '../../shared/http/idempotency-keys';
import { idempotencyRecords, resourceService } from '../../shared/composition-root';
import { deleteResource } from './endpoint';

/** DELETE /{projectKey}/resource/{id}[?version=n] — delete and answer the deleted resource. */
export const handler = endpoint(deleteResource, async ({ projectKey, path, query }) =>
  ok(await resourceService().delete(projectKey, path.id, query.number('version', { integer: true, min: 1 }))),
  undefined,
  idempotencyKeys(idempotencyRecords),
);
