import { endpoint, ok } from '../../shared/http/endpoint';
import { queryService } from '../../shared/composition-root';

/** GET /{projectKey}/resource — a page of the resources matching `where`, in `sort` order. */
export const handler = endpoint('query-resources', async ({ projectKey, query }) =>
  ok(await queryService().query(projectKey, query)),
);
