import { endpoint, ok } from '../../shared/http/endpoint';
import { jsonBody } from '../../shared/http/json-body-pipeline';
import { pageBytes } from '../../shared/http/response-size';
import { searchService } from '../../shared/composition-root';
import { searchResources } from './endpoint';

/** GET /{projectKey}/resource/searchApiPattern and POST /{projectKey}/resource/search (Product Search's request). */
export const handler = endpoint(
  searchResources,
  async ({ route, projectKey, query, body, headers }) => {
    const bytes = pageBytes(headers['accept-encoding']);
    return ok(route.method === 'POST' ? await searchService().productSearch(projectKey, body, bytes) : await searchService().search(projectKey, query, bytes));
  },
  jsonBody,
);
