import type { Resource } from '../../domain/resource';
import { resourceJsonSchema } from '../../domain/resource-fields';

/**
 * A resource's fields as the items hold them (beside the keys and `type`): the top-level fields of
 * its schema, so a field added there reaches reads, search and the document alike.
 */
export const RESOURCE_FIELDS: readonly string[] = Object.keys((resourceJsonSchema() as { properties: object }).properties);

/** The resource an item holds. */
export function toResource(item: Record<string, unknown>): Resource {
  const resource: Record<string, unknown> = {};
  for (const field of RESOURCE_FIELDS) if (item[field] !== undefined) resource[field] = item[field];
  return resource as Resource;
}
