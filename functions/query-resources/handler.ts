import { endpoint, ok } from '../../shared/http/endpoint';
import { pageBytes } from '../../shared/http/response-size';
import { queryService } from '../../shared/composition-root';
import { queryResources } from './endpoint';

/** GET /{projectKey}/resource — a page of the resources matching `where`, in `sort` order. */
export const handler = endpoint(queryResources, async ({ projectKey, query, headers }) =>
  ok(await queryService().query(projectKey, query, pageBytes(headers['accept-encoding']))),
);
