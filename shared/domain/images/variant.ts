import * as z from 'zod/mini';

/** A product variant's image, as the API answers it. */
export const Image = z.object({
  /** Where the image can be fetched. */
  url: z.string(),
  dimensions: z.object({ w: z.number().check(z.int()), h: z.number().check(z.int()) }),
  contentType: z.string(),
  label: z.string(),
});
export type Image = z.infer<typeof Image>;

/** The product variant that images are attached to (row 13's answer). */
export const Variant = z.object({
  id: z.number().check(z.int()),
  sku: z.optional(z.string()),
  images: z.array(Image),
  stagedImages: z.array(Image),
});
export type Variant = z.infer<typeof Variant>;
