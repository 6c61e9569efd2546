/** The table's key schema, shared by the CDK stack and the local engine setup. */
export const TABLE_PARTITION_KEY = 'pk';
export const TABLE_SORT_KEY = 'sk';
/** The table's time-to-live attribute (epoch seconds): pending uploads and brake counters go some time after it. */
export const TABLE_TTL_ATTRIBUTE = 'expiresAt';
/**
 * The optional index of a project's resources by `lastModifiedAt` (a deployment choice,
 * docs/design.md): a KEYS_ONLY GSI whose partition key is the table's (the project partition)
 * and whose sort key is the resources' own `lastModifiedAt` attribute (ISO-8601 UTC, so text order
 * is time order). Functions learn that it exists from LAST_MODIFIED_INDEX (its name).
 */
export const LAST_MODIFIED_INDEX_NAME = 'lastModifiedAt';
export const LAST_MODIFIED_INDEX_SORT_KEY = 'lastModifiedAt';
