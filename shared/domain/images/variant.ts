import * as z from 'zod/mini';
import { MAX_VARIANT_IMAGES } from './variant-limits';

/** A product variant's image, as the store keeps it (the answer gives its address, variant-answer.ts). */
export const Image = z.object({
  /** Where the image can be fetched. */
  url: z.string(),
  dimensions: z.object({ w: z.number().check(z.int()), h: z.number().check(z.int()) }),
  contentType: z.string(),
  label: z.string(),
});
export type Image = z.infer<typeof Image>;

/** The product variant that images are attached to, as the store keeps it. */
export const Variant = z.object({ id: z.number().check(z.int()), sku: z.optional(z.string()), images: z.array(Image), stagedImages: z.array(Image) });
export type Variant = z.infer<typeof Variant>;

/**
 * The answer of POST /{projectKey}/resource/images: the variant with the addresses of its images, each fetchable;
 * `id` a string, as the Generic Resource Service's Variant has it.
 */
export const VariantAnswer = z.object({
  id: z.string(),
  sku: z.optional(z.string()),
  images: z.array(z.string()).check(z.maxLength(MAX_VARIANT_IMAGES)),
  stagedImages: z.array(z.string()).check(z.maxLength(MAX_VARIANT_IMAGES)),
});
export type VariantAnswer = z.infer<typeof VariantAnswer>;
