import { MAX_VARIANT_IMAGES } from '../../shared/domain/images/variant-limits';
import { json, MANAGE_PRODUCTS, PROJECT_KEY } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** POST /{projectKey}/resource/images/uploads/{uploadId}: step 2 of the two-step upload. */
export const completeImageUpload = defineEndpoint({
  name: 'complete-image-upload',
  permissions: ['projects:read', 'projects:write', 'uploads:consume', 'images:write'],
  idempotencyKey: true,
  routes: [
    route({
      method: 'POST',
      path: '/{projectKey}/resource/images/uploads/{uploadId}',
      access: MANAGE_PRODUCTS,
      body: 'none',
      summary: 'Complete an upload: check the uploaded image and attach it to its variant.',
      pathParameters: { projectKey: PROJECT_KEY, uploadId: { description: 'The id the start of the upload answered.' } },
      tag: 'Images',
      description: `Step 2 of 2: the uploaded object is checked like the body of \`POST /{projectKey}/resource/images\` (declared size and type, magic number, dimensions) and attached to the variant chosen at the start. An image that fails a check, or that a variant already holding ${MAX_VARIANT_IMAGES} images cannot take (400 \`InvalidOperation\`), is deleted and the upload closed (400, 415); nothing uploaded yet is 409 and the upload stays open. A completed, expired or unknown upload is 404.`,
      responses: { 200: { description: 'The variant with the image attached.', content: json('Variant') } },
      errors: ['BadRequest', 'NotFound', 'UploadNotReceived', 'UnsupportedMediaType', 'ServiceUnavailable'],
    }),
  ],
});
