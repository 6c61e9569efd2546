import { endpoint, ok } from '../../shared/http/endpoint';
import { resourceService } from '../../shared/composition-root';

/** DELETE /{projectKey}/resource/{id}[?version=n] — delete and answer the deleted resource. */
export const handler = endpoint('delete-resource', async ({ projectKey, path, query }) =>
  ok(await resourceService().delete(projectKey, path.id!, query.number('version', { integer: true, min: 1 }))),
);
