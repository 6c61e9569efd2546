/** The table's key schema, shared by the CDK stack and the local engine setup. */
export const TABLE_PARTITION_KEY = 'pk';
export const TABLE_SORT_KEY = 'sk';
