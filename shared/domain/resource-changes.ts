import type { Resource } from './resource';

/**
 * What an update changes in a resource, and the resource after it: apart from the update actions'
 * schemas (update-actions.ts), so that the store that applies changes carries no validation.
 */

/** The net effect of a list of actions: a field absent here is left as it is; `null` removes it. */
export interface ResourceChanges {
  someProperty?: string;
  key?: string | null;
}

/** Whether applying the changes would alter the resource (an unchanged resource keeps its version). */
export function changesAlter(resource: Resource, changes: ResourceChanges): boolean {
  if (changes.someProperty !== undefined && changes.someProperty !== resource.someProperty) return true;
  if (changes.key !== undefined && (changes.key ?? undefined) !== resource.key) return true;
  return false;
}

/** The resource after the changes, one version up (the store's write produces the same). */
export function applyChanges(resource: Resource, changes: ResourceChanges, now: string): Resource {
  if (!changesAlter(resource, changes)) return resource;
  const { key, ...rest } = resource;
  const nextKey = changes.key === undefined ? key : (changes.key ?? undefined);
  return {
    ...rest,
    ...(nextKey === undefined ? {} : { key: nextKey }),
    ...(changes.someProperty === undefined ? {} : { someProperty: changes.someProperty }),
    version: resource.version + 1,
    lastModifiedAt: now,
  };
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
