import { ImageUploadTicket } from '../../domain/images/image-upload-ticket';
import { VariantAnswer } from '../../domain/images/variant';
import type { DocumentSchema } from './document-schema';

/** The image answers' schemas. */
export const imageSchemas = {
  Variant: { schema: VariantAnswer, description: 'The product variant an image was attached to, with the addresses of its images (each fetchable).' },
  ImageUploadTicket: {
    schema: ImageUploadTicket,
    description: 'A started image upload: PUT the image to `url` with `headers`, then complete the upload.',
  },
} satisfies Record<string, DocumentSchema>;
