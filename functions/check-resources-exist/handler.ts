import { endpoint } from '../../shared/http/endpoint';
import { queryService } from '../../shared/composition-root';
import { checkResourcesExist } from './endpoint';

/** HEAD /{projectKey}/resource — 200 when at least one resource matches `where`, else 404; no body. */
export const handler = endpoint(checkResourcesExist, async ({ projectKey, query }) => ({
  statusCode: (await queryService().exists(projectKey, query)) ? 200 : 404,
}));
