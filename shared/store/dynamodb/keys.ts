/**
 * The single table's key layout. Everything of a project shares one partition key, so a project
 * is one item collection that a Query pages through in id order (ids are UUIDv7, so that is
 * also creation order — shared/domain/resource-id.ts):
 *
 *   pk = PROJECT#<projectKey>   sk = RESOURCE#<id>    the resource
 *   pk = PROJECT#<projectKey>   sk = KEY#<key>        key sentinel: makes keys unique per project
 *   pk = PROJECT#<projectKey>   sk = STATS#<nn>       one of 16 counter shards: resources added
 *                                                     minus removed, written in the same
 *                                                     transaction as the create or delete
 *   pk = PROJECT#<projectKey>   sk = IDEMPOTENCY#<hash>   the record of an Idempotency-Key (Powertools:
 *                                                     status, the answer, the request's hash), removed
 *                                                     by the TTL after a day; the hash is of the client,
 *                                                     method, path and key (idempotency-records.ts)
 *   pk = PROJECT#<projectKey>   sk = CREATED_BY#<hash>   the resource a create with an Idempotency-Key
 *                                                     made (its id), written in the create's transaction;
 *                                                     removed by the TTL after a day; the hash is of the
 *                                                     request (shared/http/idempotency-keys.ts)
 *   pk = CLIENT#<clientId>      sk = CLIENT           an API client of the token service
 *   pk = CLIENT#<clientId>      sk = ATTEMPTS#<window>#<source>   its brute-force brake counter per source address
 *
 * The other items of a project (variants, skus, uploads, extension bindings, the complex path's
 * documents and the JSON value) are keyed by their own adapters; docs/design.md lists them all. None starts with
 * `RESOURCE#`, so resource queries never see them.
 */
export const PROJECT_PREFIX = 'PROJECT#';
export const projectPartition = (projectKey: string) => `${PROJECT_PREFIX}${projectKey}`;
export const RESOURCE_PREFIX = 'RESOURCE#';
/** Sorts right after every `RESOURCE#…` key ('$' follows '#'): the end of a resource range. */
export const RESOURCE_RANGE_END = 'RESOURCE$';
export const resourceKey = (projectKey: string, id: string) => ({ pk: projectPartition(projectKey), sk: `${RESOURCE_PREFIX}${id}` });
export const keySentinelKey = (projectKey: string, key: string) => ({ pk: projectPartition(projectKey), sk: `KEY#${key}` });
export const createdByKey = (projectKey: string, requestHash: string) => ({ pk: projectPartition(projectKey), sk: `CREATED_BY#${requestHash}` });
export const STATS_PREFIX = 'STATS#';
/** Sorts right after every `STATS#…` key. */
export const STATS_RANGE_END = 'STATS$';
export const STATS_SHARDS = 16;
export const statsShardKey = (projectKey: string, shard: number) => ({
  pk: projectPartition(projectKey),
  sk: `${STATS_PREFIX}${String(shard).padStart(2, '0')}`,
});
export const clientKey = (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'CLIENT' });
/** Powertools' key prefix of Idempotency-Key records: their sort keys are `IDEMPOTENCY#<hash>`. */
export const idempotencyKeyPrefix = 'IDEMPOTENCY';
export const ATTEMPT_COUNTER_PREFIX = 'ATTEMPTS#';
export const attemptCounterKey = (clientId: string, window: number, source: string) => ({
  pk: clientKey(clientId).pk,
  sk: `${ATTEMPT_COUNTER_PREFIX}${window}#${source}`,
});
/**
 * Subscriptions (docs/subscriptions.md): in their project's partition, outside the `RESOURCE#`
 * range; what delivery keeps in partitions of its own, the only ones the consumer may write.
 */
export const SUBSCRIPTION_PREFIX = 'SUBSCRIPTION#';
export const subscriptionKey = (projectKey: string, id: string) => ({ pk: projectPartition(projectKey), sk: `${SUBSCRIPTION_PREFIX}${id}` });
export const subscriptionKeySentinelKey = (projectKey: string, key: string) => ({ pk: projectPartition(projectKey), sk: `SUBSCRIPTION_KEY#${key}` });
/** Every parked notification of the deployment, by subscription and then stream order. */
export const PARKED_PARTITION = 'PARKED';
export const parkedKey = (subscriptionId: string, sequenceKey: string) => ({ pk: PARKED_PARTITION, sk: `${subscriptionId}#${sequenceKey}` });
export const deadLettersPartition = (projectKey: string) => `DEAD#${projectKey}`;
export const deadLetterKey = (projectKey: string, subscriptionId: string, sequenceKey: string) => ({
  pk: deadLettersPartition(projectKey),
  sk: `${subscriptionId}#${sequenceKey}`,
});
