import { IMAGE_CONTENT_TYPES, MAX_IMAGE_BYTES } from '../../shared/domain/images/image-file';
import { MAX_UPLOAD_BYTES } from '../../shared/domain/images/image-upload';
import { MAX_VARIANT_IMAGES } from '../../shared/domain/images/variant-limits';
import { IMAGE_TARGET_QUERY, json, MANAGE_PRODUCTS, PROJECT_KEY } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** POST /{projectKey}/resource/images: an image in the body, stored in S3 and attached to a product variant. The literal `images` beats `{id}` at the gateway. */
export const uploadImage = defineEndpoint({
  name: 'upload-image',
  permissions: ['projects:read', 'projects:write', 'images:write'],
  idempotencyKey: true,
  routes: [
    route({
      method: 'POST',
      path: '/{projectKey}/resource/images',
      access: MANAGE_PRODUCTS,
      body: 'binary',
      summary: 'Upload a JPEG, PNG or GIF image to the variant chosen by sku or variant.',
      pathParameters: { projectKey: PROJECT_KEY },
      query: IMAGE_TARGET_QUERY,
      tag: 'Images',
      description: `The body is the image itself (at most ${MAX_IMAGE_BYTES} bytes; larger ones, up to ${MAX_UPLOAD_BYTES}, go through \`POST /{projectKey}/resource/images/uploads\`); its type is checked by its bytes and must agree with Content-Type. Choose the variant with \`sku\` or \`variant\` (created on its first image; it holds at most ${MAX_VARIANT_IMAGES} images, and a full one is 400 \`InvalidOperation\`). \`staged\` defaults to true (the image joins \`stagedImages\` only); \`filename\` defaults to \`img\`.`,
      request: { required: true, content: Object.fromEntries(IMAGE_CONTENT_TYPES.map((type) => [type, null])) },
      responses: { 200: { description: 'The variant with the image attached.', content: json('Variant') } },
      errors: ['BadRequest', 'PayloadTooLarge', 'UnsupportedMediaType', 'ServiceUnavailable'],
    }),
  ],
});
