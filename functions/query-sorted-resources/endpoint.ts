import { PAGE, PAGED_QUERY, PROJECT_KEY, QUERY_ERRORS, READ, VAR_PARAMETERS } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** GET /{projectKey}/resource/sorted-query-parameters: the paged query with only its own parameters. */
export const querySortedResources = defineEndpoint({
  name: 'query-sorted-resources',
  permissions: ['projects:read'],
  routes: [
    route({
      method: 'GET',
      path: '/{projectKey}/resource/sorted-query-parameters',
      access: READ,
      body: 'none',
      summary: 'Query resources with where, sort, limit, offset, withTotal, expand and var.* parameters.',
      pathParameters: { projectKey: PROJECT_KEY },
      query: PAGED_QUERY,
      tag: 'Resources',
      description: `The paged query of \`GET /{projectKey}/resource\`. ${VAR_PARAMETERS}`,
      responses: { 200: PAGE },
      errors: QUERY_ERRORS,
    }),
  ],
});
