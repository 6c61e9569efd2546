import { json, jsonBody, MANAGE, PROJECT_KEY } from '../../shared/http/contract/declaring';
import { MAX_URI_PARAMETER_LENGTH, URI_PARAMETER_ONE_PREFIX } from '../../shared/domain/out-of-order-properties';
import { defineEndpoint, route } from '../../shared/http/declaration';

/**
 * POST /{projectKey}/resource/artificially-complex/path/uri-parameter-one={x}/{two}: API
 * Gateway routes the whole `uri-parameter-one=<x>` segment and the handler checks the prefix.
 */
export const postComplexPath = defineEndpoint({
  name: 'post-complex-path',
  permissions: ['projects:read', 'projects:write'],
  idempotencyKey: true,
  routes: [
    route({
      method: 'POST',
      path: '/{projectKey}/resource/artificially-complex/path/{uriParameterOne}/{uriParameterTwo}',
      access: MANAGE,
      body: 'json',
      summary: 'Store an OutOfOrderPropertiesTestType under (uriParameterOne, uriParameterTwo); answer the named resource\'s objectTypeProperty.',
      pathParameters: {
        projectKey: PROJECT_KEY,
        uriParameterOne: {
          description: 'The whole segment `uri-parameter-one=<value>`: the prefix is part of the path, `<value>` is the parameter.',
          pattern: '^uri-parameter-one=.+$',
          // The value, URL-encoded, is at most MAX_URI_PARAMETER_LENGTH characters (complex-path-service.ts): the prefix's 18 more.
          maxLength: URI_PARAMETER_ONE_PREFIX.length + MAX_URI_PARAMETER_LENGTH,
        },
        uriParameterTwo: { description: 'A plain path segment.', maxLength: MAX_URI_PARAMETER_LENGTH },
      },
      query: { queryParameterOne: { type: 'number' }, queryParameterTwo: { type: 'string' } },
      tag: 'Resources',
      request: jsonBody('OutOfOrderPropertiesTestType'),
      responses: {
        200: { description: 'A document at this path was replaced.', content: json('ArrayTestType') },
        201: { description: 'The document is new at this path.', content: json('ArrayTestType') },
        203: { description: 'The body\'s `version` is not the resource\'s current one; the answer reflects the current version.', content: json('ArrayTestType') },
      },
      errors: ['BadRequest', 'NotFound', 'PayloadTooLarge', 'UnsupportedMediaType', 'ServiceUnavailable'],
    }),
  ],
});
