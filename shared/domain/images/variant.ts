import * as z from 'zod';

/** A product variant's image, as the API answers it. */
export const Image = z.object({
  /** Where the image can be fetched. */
  url: z.string(),
  dimensions: z.object({ w: z.number().int(), h: z.number().int() }),
  contentType: z.string(),
  label: z.string(),
});
export type Image = z.infer<typeof Image>;

/** The product variant that images are attached to (row 13's answer). */
export const Variant = z.object({
  id: z.number().int(),
  sku: z.string().optional(),
  images: z.array(Image),
  stagedImages: z.array(Image),
});
export type Variant = z.infer<typeof Variant>;
