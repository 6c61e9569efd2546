import { defineFunction } from '../../shared/http/declaration';

/**
 * The consumer of the table's stream, and the retrier of parked notifications (a schedule in AWS,
 * a timer locally): not an endpoint, a function of the stack with its own permissions.
 */
export const deliverChanges = defineFunction({
  name: 'deliver-changes',
  permissions: ['projects:read', 'subscriptions:deliver'],
  tableStream: { batchSize: 100, batchingWindowSeconds: 0, retryAttempts: 10 },
});
