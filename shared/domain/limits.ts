/** Largest JSON body a resource endpoint takes: a stored item must stay under DynamoDB's 400 KB. */
export const JSON_BODY_LIMIT_BYTES = 256 * 1024;

/** The deepest `offset` a query takes (the commercetools family's limit): page by id beyond it. */
export const MAX_OFFSET = 10_000;
