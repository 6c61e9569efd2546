import { ATTEMPT_COUNTER_ATTRIBUTES } from './client-store';
import { clientKey, deadLettersPartition, PARKED_PARTITION, projectPartition } from './keys';
import { LAST_MODIFIED_INDEX_NAME } from './table-schema';

/**
 * What each permission a function declares lets it do in the table: actions, on items whose
 * partition key matches a pattern (IAM's `dynamodb:LeadingKeys`), and for some only these
 * attributes (`dynamodb:Attributes`). The CDK stack turns these into IAM statements
 * (infra/function-permissions.ts); local mode refuses, as IAM would, a call a function's grants do
 * not allow (local/table-access.ts), so that a missing grant fails the tests and not only AWS.
 */
export interface TableGrant {
  actions: readonly string[];
  /** The partition keys it holds for, `*` a wildcard (`PROJECT#*`). */
  leadingKey: string;
  /** When given, only these attributes may be written or read. */
  attributes?: readonly string[];
  /** Whether the table's indexes the deployment lets projects read are included (Query only). */
  withReadIndexes?: boolean;
}

const PROJECT_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'];
// Only what the stores send: no BatchWriteItem, no ConditionCheck part in any transaction.
const PROJECT_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];

/** By the name of the permission (shared/http/declaration.ts's `Permission`) that grants it. */
export const TABLE_GRANTS: Readonly<Record<string, readonly TableGrant[]>> = {
  'projects:read': [{ actions: PROJECT_READ_ACTIONS, leadingKey: projectPartition('*'), withReadIndexes: true }],
  'projects:write': [{ actions: PROJECT_WRITE_ACTIONS, leadingKey: projectPartition('*') }],
  'clients:read': [{ actions: ['dynamodb:GetItem'], leadingKey: clientKey('*').pk }],
  // The brute-force brake's counters, and nothing else: client partitions only, these attributes only.
  // The consumer's own partitions: parked notifications (read, written, deleted) and dead letters (written).
  'subscriptions:deliver': [
    { actions: ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:DeleteItem'], leadingKey: PARKED_PARTITION },
    { actions: ['dynamodb:PutItem'], leadingKey: deadLettersPartition('*') },
  ],
  'clients:countAttempts': [{ actions: ['dynamodb:UpdateItem'], leadingKey: clientKey('*').pk, attributes: ATTEMPT_COUNTER_ATTRIBUTES }],
};

/** The indexes a grant `withReadIndexes` reaches, those of them a deployment has (the lastModifiedAt index, unless removed). */
export const PROJECT_READ_INDEXES: readonly string[] = [LAST_MODIFIED_INDEX_NAME];

/** Whether a partition key matches a grant's pattern (`*` matches any run of characters, as IAM's StringLike). */
export function matchesLeadingKey(pattern: string, partitionKey: string): boolean {
  let expression = patterns.get(pattern);
  if (!expression) {
    expression = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    patterns.set(pattern, expression);
  }
  return expression.test(partitionKey);
}

const patterns = new Map<string, RegExp>();
