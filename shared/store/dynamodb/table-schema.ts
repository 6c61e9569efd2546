/** The table's key schema, shared by the CDK stack and the local engine setup. */
export const TABLE_PARTITION_KEY = 'pk';
export const TABLE_SORT_KEY = 'sk';
/** The table's time-to-live attribute (epoch seconds): pending uploads and brake counters go some time after it. */
export const TABLE_TTL_ATTRIBUTE = 'expiresAt';
