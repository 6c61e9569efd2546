import { INTERFACE_OBJECT_TEST_TYPE, PAGE, PROJECT_KEY, QUERY_ERRORS, READ, RESOURCE_QUERY, VAR_PARAMETERS } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** GET /{projectKey}/resource: the paged query of the collection. */
export const queryResources = defineEndpoint({
  name: 'query-resources',
  permissions: ['projects:read'],
  routes: [
    route({
      method: 'GET',
      path: '/{projectKey}/resource',
      access: READ,
      body: 'none',
      summary: 'Query resources: where, sort, paging, and the declared typed parameters.',
      pathParameters: { projectKey: PROJECT_KEY },
      query: { ...RESOURCE_QUERY, unionParameter: { type: ['number', 'date-time', 'json'], shape: INTERFACE_OBJECT_TEST_TYPE } },
      tag: 'Resources',
      description: `A paged query. The typed parameters of the interface are checked by type and do not narrow the result. ${VAR_PARAMETERS}`,
      responses: { 200: PAGE },
      errors: QUERY_ERRORS,
    }),
  ],
});
