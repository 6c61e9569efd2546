import { ImageUploadTicket } from '../../domain/images/image-upload-ticket';
import { Image, Variant } from '../../domain/images/variant';
import type { DocumentSchema } from './document-schema';

/** The image answers' schemas. */
export const imageSchemas = {
  Image: { schema: Image },
  Variant: { schema: Variant, description: 'The product variant an image was attached to.' },
  ImageUploadTicket: {
    schema: ImageUploadTicket,
    description: 'A started image upload: PUT the image to `url` with `headers`, then complete the upload.',
  },
} satisfies Record<string, DocumentSchema>;
