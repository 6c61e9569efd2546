import type { Resource } from '../../domain/resource';

/** A resource's fields as the items hold them (beside the keys and `type`). */
export const RESOURCE_FIELDS = ['id', 'key', 'version', 'createdAt', 'lastModifiedAt', 'objectTypeProperty', 'someProperty'] as const;

/** The resource an item holds. */
export function toResource(item: Record<string, unknown>): Resource {
  const resource: Record<string, unknown> = {};
  for (const field of RESOURCE_FIELDS) if (item[field] !== undefined) resource[field] = item[field];
  return resource as Resource;
}
