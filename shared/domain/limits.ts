/** Largest JSON body a resource endpoint takes: a stored item must stay under DynamoDB's 400 KB. */
export const JSON_BODY_LIMIT_BYTES = 256 * 1024;

/** The largest page a query or search answers (`limit`, the commercetools family's limit). */
export const MAX_PAGE_SIZE = 500;

/** The longest `where` predicate: longer input is refused before it is read, so one request cannot buy unbounded work. */
export const MAX_PREDICATE_LENGTH = 10_000;

/** The longest `sort` expression (one entry). */
export const MAX_SORT_LENGTH = 1_000;

/** The deepest `offset` a query takes (the commercetools family's limit): page by id beyond it. */
export const MAX_OFFSET = 10_000;

/**
 * The most problems one refusal lists: a body of 256 KB can hold tens of thousands of invalid
 * values, and echoing each (`invalidValue`) would make an answer far larger than the body and than
 * the 6 MB a Lambda can return (API Gateway would then answer its own 500).
 */
export const MAX_LISTED_PROBLEMS = 100;

/** How long the answer to a request with an Idempotency-Key is kept for its retries (the draft's advice: 24 h). */
export const IDEMPOTENCY_RECORD_SECONDS = 86_400;

/** Local mode's limit on the request line and headers together: Node's parser's (its default `maxHeaderSize`). */
export const LOCAL_HEADER_LIMIT_BYTES = 16 * 1024;
