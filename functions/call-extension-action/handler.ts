import { endpoint } from '../../shared/http/endpoint';
import { extensionService } from '../../shared/composition-root';
import { callExtensionAction } from './endpoint';

/**
 * POST and GET /{projectKey}/resource/namespace-action, GET …/namespace-action-with-example —
 * the extension action named by the path's last segment, answered by what the project bound it to.
 */
export const handler = endpoint(callExtensionAction, async (request) =>
  extensionService().call({
    projectKey: request.projectKey,
    action: request.route.path.split('/').pop()!,
    method: request.method,
    path: request.rawPath,
    query: request.query.entries,
    body: typeof request.body === 'string' ? request.body : undefined,
    contentType: request.headers['content-type'],
    correlationId: request.correlationId,
  }),
);
