import { PROJECT_KEY, QUERY_ERRORS, READ, RESOURCE_QUERY, VAR_PARAMETERS } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** HEAD /{projectKey}/resource: whether any resource matches. */
export const checkResourcesExist = defineEndpoint({
  name: 'check-resources-exist',
  permissions: ['projects:read'],
  routes: [
    route({
      method: 'HEAD',
      path: '/{projectKey}/resource',
      access: READ,
      body: 'none',
      summary: 'Whether at least one resource matches: 200 or 404, no body.',
      pathParameters: { projectKey: PROJECT_KEY },
      query: RESOURCE_QUERY,
      tag: 'Resources',
      description: `Reading stops at the first match. ${VAR_PARAMETERS}`,
      responses: { 200: { description: 'At least one resource matches (no body).' }, 404: { description: 'No resource matches (no body).' } },
      errors: QUERY_ERRORS,
    }),
  ],
});
