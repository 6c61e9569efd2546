/**
 * The most images a product variant holds: `stagedImages`, which every image joins, and `images`,
 * which published ones join too, each at most this many. A variant is one DynamoDB item, and an
 * item holds at most 400 KB (409,600 bytes): past it every further upload to the variant failed.
 *
 * The worst case, by DynamoDB's sizing (names and strings by their UTF-8 bytes; a number about a
 * byte per two digits, plus one; a map or list 3 bytes plus one per entry). One stored image,
 * `{url, dimensions: {w, h}, contentType, label}`:
 *   - url ≤ 474 bytes: `https://` (8) + the CloudFront domain (29, `d<13 characters>.cloudfront.net`;
 *     64 allowed) + `/` + project key (≤ 256 of `A-Z a-z 0-9 _ -`, which encodeURIComponent keeps)
 *     + `/images/` (8) + uuid (36) + `/` + file name (≤ 100 of `A-Z a-z 0-9 . _ -`);
 *   - label ≤ 100 (the file name), contentType ≤ 10, w and h ≤ 5 digits (16384);
 *   - with the names (26 bytes) and the maps' overhead: ≤ 640 bytes.
 * Both lists full: 2 × 200 × 640 = 256,000 bytes, plus keys, id, sku (≤ 256) and write token
 * (< 1 KB): ≈ 63 % of the limit, leaving room for a field a later answer may need to store.
 * Measured on DynamoDB Local: 321 such images in both lists fit, 322 do not (≈ 638 bytes each).
 */
export const MAX_VARIANT_IMAGES = 200;
