import type { ResourceChange } from '../resource-change';

/** commercetools' change notifications (ResourceCreated, ResourceUpdated, ResourceDeleted), made from one change of the table's stream: the resource before and after the write. */
export interface ChangeNotification {
  notificationType: 'ResourceCreated' | 'ResourceUpdated' | 'ResourceDeleted';
  projectKey: string;
  resource: { typeId: 'resource'; id: string };
  resourceUserProvidedIdentifiers?: { key: string };
  version: number;
  oldVersion?: number;
  modifiedAt: string;
}

/** The notification of a resource's write; undefined for a write that kept the version. */
export function notificationOf({ projectKey, id, key, version, before, after, writtenAt }: ResourceChange): ChangeNotification | undefined {
  const common = { projectKey, resource: { typeId: 'resource' as const, id }, ...(key === undefined ? {} : { resourceUserProvidedIdentifiers: { key } }), version };
  if (!before) return { notificationType: 'ResourceCreated', ...common, modifiedAt: after!.lastModifiedAt };
  // A delete leaves no time in the item: the stream's (to the second), never before the last modification.
  if (!after) return { notificationType: 'ResourceDeleted', ...common, modifiedAt: [writtenAt, before.lastModifiedAt].sort().at(-1)! };
  if (after.version === before.version) return undefined;
  return { notificationType: 'ResourceUpdated', ...common, oldVersion: before.version, modifiedAt: after.lastModifiedAt };
}

/**
 * The id a receiver de-duplicates on: the same for every attempt of one notification to one
 * subscription. Stream sequence numbers are decimal strings of up to 40 digits; padded, they sort as numbers.
 */
export const sequenceKey = (sequenceNumber: string) => sequenceNumber.padStart(40, '0');
export const notificationId = (subscriptionId: string, sequenceNumber: string) => `${subscriptionId}-${sequenceKey(sequenceNumber)}`;
