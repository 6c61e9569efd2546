/**
 * commercetools' change notifications (ResourceCreated, ResourceUpdated, ResourceDeleted), made
 * from one change of the table's stream: the resource's item before and after the write.
 */

/** One write of the table as its stream tells it, the images unmarshalled. */
export interface TableChange {
  /** The stream's sequence number: increases for each write of one item. */
  sequenceNumber: string;
  /** When the write happened, as the stream records it (ISO 8601). */
  writtenAt: string;
  newImage?: Record<string, unknown>;
  oldImage?: Record<string, unknown>;
}

export interface ChangeNotification {
  notificationType: 'ResourceCreated' | 'ResourceUpdated' | 'ResourceDeleted';
  projectKey: string;
  resource: { typeId: 'resource'; id: string };
  resourceUserProvidedIdentifiers?: { key: string };
  version: number;
  oldVersion?: number;
  modifiedAt: string;
}

const PROJECT = /^PROJECT#(.+)$/;

/** The notification of a resource's write; undefined for every other item, and for a write that kept the version. */
export function notificationOf(change: TableChange): ChangeNotification | undefined {
  const item = change.newImage ?? change.oldImage;
  const projectKey = PROJECT.exec(String(item?.pk))?.[1];
  if (!item || projectKey === undefined || !String(item.sk).startsWith('RESOURCE#')) return undefined;
  const { newImage, oldImage } = change;
  const common = {
    projectKey,
    resource: { typeId: 'resource' as const, id: String(item.id) },
    ...(typeof item.key === 'string' ? { resourceUserProvidedIdentifiers: { key: item.key } } : {}),
  };
  if (!oldImage) return { notificationType: 'ResourceCreated', ...common, version: Number(newImage!.version), modifiedAt: String(newImage!.lastModifiedAt) };
  if (!newImage) {
    // A delete leaves no time in the item: the stream's (to the second), never before the last modification.
    const modifiedAt = [change.writtenAt, String(oldImage.lastModifiedAt)].sort().at(-1)!;
    return { notificationType: 'ResourceDeleted', ...common, version: Number(oldImage.version), modifiedAt };
  }
  if (newImage.version === oldImage.version) return undefined;
  return {
    notificationType: 'ResourceUpdated',
    ...common,
    version: Number(newImage.version),
    oldVersion: Number(oldImage.version),
    modifiedAt: String(newImage.lastModifiedAt),
  };
}

/**
 * The id a receiver de-duplicates on: the same for every attempt of one notification to one
 * subscription. Stream sequence numbers are decimal strings of up to 40 digits; padded, they sort as numbers.
 */
export const sequenceKey = (sequenceNumber: string) => sequenceNumber.padStart(40, '0');
export const notificationId = (subscriptionId: string, sequenceNumber: string) => `${subscriptionId}-${sequenceKey(sequenceNumber)}`;
