import type { Variant, VariantAnswer } from './variant';

/**
 * What POST /{projectKey}/resource/images and the upload's completion answer: the variant with its images' addresses. The
 * store keeps more of each image (dimensions, type, label: what was checked); the contract answers
 * addresses. Apart from variant.ts so that the image functions carry no zod.
 */
export function variantAnswer(variant: Variant): VariantAnswer {
  return {
    id: String(variant.id),
    ...(variant.sku === undefined ? {} : { sku: variant.sku }),
    images: variant.images.map((image) => image.url),
    stagedImages: variant.stagedImages.map((image) => image.url),
  };
}
