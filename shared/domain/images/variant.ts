/** A product variant's image, as the API answers it. */
export interface Image {
  url: string;
  dimensions: { w: number; h: number };
  contentType: string;
  label: string;
}

/** The product variant that images are attached to (row 13's answer). */
export interface Variant {
  id: number;
  sku?: string;
  images: Image[];
  stagedImages: Image[];
}
