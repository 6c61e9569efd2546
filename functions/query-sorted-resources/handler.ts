import { endpoint, ok } from '../../shared/http/endpoint';
import { pageBytes } from '../../shared/http/response-size';
import { queryService } from '../../shared/composition-root';
import { querySortedResources } from './endpoint';

/** GET /{projectKey}/resource/sorted-query-parameters — the paged query with where, sort and var.* */
export const handler = endpoint(querySortedResources, async ({ projectKey, query, headers }) =>
  ok(await queryService().query(projectKey, query, pageBytes(headers['accept-encoding']))),
);
