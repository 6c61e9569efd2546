import { defineFunction } from '../../shared/http/declaration';

/**
 * The search index's feed: a second consumer of the table's stream (beside deliver-changes, so that
 * a broken index never delays a notification, and the reverse), and the reindex run on demand.
 * Not an endpoint, a function of the stack with its own permissions.
 */
export const indexChanges = defineFunction({
  name: 'index-changes',
  permissions: ['projects:read', 'search:write', 'searchFailures:write'],
  // Never given up on a count; batches of up to 1,000 keep a project's lane ahead of its writes, and no
  // window keeps a lone write searchable within a second (docs/design.md, "The search index's feed").
  tableStream: { batchSize: 1_000, batchingWindowSeconds: 0, retryAttempts: 'until-expired' },
});
