import { CART_EXAMPLE } from '../../shared/domain/extensions/default-bindings';
import { json, MANAGE, PROJECT_KEY, READ } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

const FORWARDED = {
  tag: 'Extensions',
  description:
    'Forwarded to the handler the project bound the action to (an HTTPS endpoint, a Lambda function or a static JSON document), with the method, query and body; its status and JSON answer are relayed. The handler has 2 s.',
  pathParameters: { projectKey: PROJECT_KEY },
} as const;
const ANSWER = { description: "The bound handler's JSON answer (it chooses the status).", content: json('JsonValue') };
const GET_ERRORS = ['NotFound', 'BadGateway', 'ServiceUnavailable', 'GatewayTimeout'] as const;

/**
 * POST and GET /{projectKey}/resource/namespace-action, GET …/namespace-action-with-example: the extension action named by the path's last segment, answered by what the project
 * bound it to.
 */
export const callExtensionAction = defineEndpoint({
  name: 'call-extension-action',
  permissions: ['projects:read', 'extensions:invoke'],
  routes: [
    route({
      ...FORWARDED,
      method: 'POST',
      path: '/{projectKey}/resource/namespace-action',
      access: MANAGE,
      body: 'text',
      summary: 'Call the extension action namespace-action (POST).',
      request: { required: false, content: json('JsonValue') },
      responses: { 200: ANSWER },
      errors: ['BadRequest', 'NotFound', 'PayloadTooLarge', 'UnsupportedMediaType', 'BadGateway', 'ServiceUnavailable', 'GatewayTimeout'],
    }),
    route({
      ...FORWARDED,
      method: 'GET',
      path: '/{projectKey}/resource/namespace-action',
      access: READ,
      body: 'none',
      summary: 'Call the extension action namespace-action (GET).',
      responses: { 200: ANSWER },
      errors: GET_ERRORS,
    }),
    route({
      ...FORWARDED,
      method: 'GET',
      path: '/{projectKey}/resource/namespace-action-with-example',
      access: READ,
      body: 'none',
      summary: 'Call the extension action namespace-action-with-example; bound by default to its declared cart example.',
      responses: {
        200: { description: "The bound handler's JSON answer; bound by default to the action's declared example, a cart.", content: json('JsonValue'), example: CART_EXAMPLE },
      },
      errors: GET_ERRORS,
    }),
  ],
});
