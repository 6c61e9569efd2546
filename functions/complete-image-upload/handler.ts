import { endpoint, ok } from '../../shared/http/endpoint';
import { imageService } from '../../shared/composition-root';
import { completeImageUpload } from './endpoint';

/** POST /{projectKey}/resource/images/uploads/{uploadId} — check the uploaded object and attach it to its variant. */
export const handler = endpoint(completeImageUpload, async ({ projectKey, path }) =>
  ok(await imageService().completeUpload(projectKey, path.uploadId)),
);
