import { endpoint, ok } from '../../shared/http/endpoint';
import { searchService } from '../../shared/composition-root';
import { searchResources } from './endpoint';

/** GET /{projectKey}/resource/searchApiPattern — full-text (fuzzy) search with filters and facets. */
export const handler = endpoint(searchResources, async ({ projectKey, query }) =>
  ok(await searchService().search(projectKey, query)),
);
