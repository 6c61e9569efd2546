import { endpoint, ok } from '../../shared/http/endpoint';
import { idempotencyKeys } from '../../shared/http/idempotency-keys';
import { idempotencyRecords, imageService } from '../../shared/composition-root';
import { variantAnswer } from '../../shared/domain/images/variant-answer';
import { uploadImage } from './endpoint';

/** POST /{projectKey}/resource/images — store a JPEG, PNG or GIF and attach it to the chosen variant. */
export const handler = endpoint(uploadImage, async ({ projectKey, query, headers, body }) =>
  ok(variantAnswer(await imageService().upload(projectKey, query, headers['content-type'], body as Buffer | undefined))),
  undefined,
  idempotencyKeys(idempotencyRecords),
);
