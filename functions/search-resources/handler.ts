import { endpoint, ok } from '../../shared/http/endpoint';
import { pageBytes } from '../../shared/http/response-size';
import { searchService } from '../../shared/composition-root';
import { searchResources } from './endpoint';

/** GET /{projectKey}/resource/searchApiPattern — full-text (fuzzy) search with filters and facets. */
export const handler = endpoint(searchResources, async ({ projectKey, query, headers }) =>
  ok(await searchService().search(projectKey, query, pageBytes(headers['accept-encoding']))),
);
