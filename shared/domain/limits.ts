/** Largest JSON body a resource endpoint takes: a stored item must stay under DynamoDB's 400 KB. */
export const JSON_BODY_LIMIT_BYTES = 256 * 1024;
