import { endpoint, ok } from '../../shared/http/endpoint';
import { idempotencyKeys } from '../../shared/http/idempotency-keys';
import { idempotencyRecords, imageService } from '../../shared/composition-root';
import { variantAnswer } from '../../shared/domain/images/variant-answer';
import { completeImageUpload } from './endpoint';

/** POST /{projectKey}/resource/images/uploads/{uploadId} — check the uploaded object and attach it to its variant. */
export const handler = endpoint(completeImageUpload, async ({ projectKey, path }) =>
  ok(variantAnswer(await imageService().completeUpload(projectKey, path.uploadId))),
  undefined,
  idempotencyKeys(idempotencyRecords),
);
