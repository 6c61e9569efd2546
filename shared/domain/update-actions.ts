import * as z from 'zod/mini';
import { ResourceKey, Version, type Resource } from './resource';

/**
 * Update actions of POST /{projectKey}/resource/{id}. Each action sets one field, so applying a
 * list in order is the same as applying its net changes at once: the store writes those in a
 * single conditional update, which makes the request all-or-nothing.
 */
export const updateActionSchemas = {
  doSomeThing: z.strictObject({ action: z.literal('doSomeThing') }),
  changeSomeProperty: z.strictObject({ action: z.literal('changeSomeProperty'), someProperty: z.string().check(z.maxLength(4096)) }),
  /** Beyond the interface: sets the key, or removes it when `key` is absent. */
  setKey: z.strictObject({ action: z.literal('setKey'), key: z.optional(ResourceKey) }),
};

export type UpdateActionName = keyof typeof updateActionSchemas;
export type UpdateAction = z.infer<(typeof updateActionSchemas)[UpdateActionName]>;

export const MAX_UPDATE_ACTIONS = 500;

export const UpdateRequest = z.strictObject({
  version: Version,
  actions: z.array(z.unknown()).check(z.maxLength(MAX_UPDATE_ACTIONS)),
});

/** The net effect of a list of actions: a field absent here is left as it is; `null` removes it. */
export interface ResourceChanges {
  someProperty?: string;
  key?: string | null;
}

export function isUpdateActionName(name: unknown): name is UpdateActionName {
  return typeof name === 'string' && Object.hasOwn(updateActionSchemas, name);
}

export function netChanges(actions: readonly UpdateAction[]): ResourceChanges {
  const changes: ResourceChanges = {};
  for (const action of actions) {
    switch (action.action) {
      case 'doSomeThing':
        break;
      case 'changeSomeProperty':
        changes.someProperty = action.someProperty;
        break;
      case 'setKey':
        changes.key = action.key ?? null;
        break;
    }
  }
  return changes;
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
