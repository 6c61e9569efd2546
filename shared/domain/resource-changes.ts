import { isDeepStrictEqual } from 'node:util';
import type { Resource } from './resource';

/**
 * What an update changes in a resource, and the resource after it: apart from the update actions'
 * schemas (update-actions.ts), so that the store that applies changes carries no validation.
 */

/** The fields update actions may set: all but the identity, version and timestamps the store keeps. */
type SettableFields = Omit<Resource, 'id' | 'version' | 'createdAt' | 'lastModifiedAt'>;

/** The net effect of a list of actions: a field absent here is left as it is; `null` removes an optional one. */
export type ResourceChanges = {
  [F in keyof SettableFields]?: undefined extends SettableFields[F] ? SettableFields[F] | null : SettableFields[F];
};

/** Each field the changes name, with its new value (`null`: removed). */
export function changedFields(changes: ResourceChanges): [keyof SettableFields, unknown][] {
  return Object.entries(changes).filter(([, value]) => value !== undefined) as [keyof SettableFields, unknown][];
}

/** Whether applying the changes would alter the resource (an unchanged resource keeps its version). */
export function changesAlter(resource: Resource, changes: ResourceChanges): boolean {
  return changedFields(changes).some(([field, value]) => !isDeepStrictEqual(value ?? undefined, resource[field]));
}

/** The resource after the changes, one version up (the store's write produces the same). */
export function applyChanges(resource: Resource, changes: ResourceChanges, now: string): Resource {
  if (!changesAlter(resource, changes)) return resource;
  const next: Record<string, unknown> = { ...resource, version: resource.version + 1, lastModifiedAt: now };
  for (const [field, value] of changedFields(changes)) {
    if (value === null) delete next[field];
    else next[field] = value;
  }
  return next as Resource;
}

/**
 * The time a write stamps as `lastModifiedAt`: now, or — when the resource already carries a time
 * that is not earlier (another writer's clock ahead, or the same millisecond) — one millisecond
 * after it, so that a later version never carries an earlier time and "modified since" reads
 * (`where=lastModifiedAt > …`) miss no change.
 */
export function modificationTime(now: string, previous: string | undefined): string {
  if (previous === undefined || now > previous) return now;
  return new Date(Date.parse(previous) + 1).toISOString();
}
