import type { Image, Variant } from '../domain/images/variant';

/** Product variants and their images. */
export interface VariantStore {
  /**
   * Attaches an image to the variant chosen by `sku` and/or `id` (both must name the same one),
   * creating the variant on its first image. `publish` adds it to `images` besides `stagedImages`.
   */
  attachImage(projectKey: string, selector: { sku?: string; id?: number }, image: Image, publish: boolean): Promise<Variant>;
}
