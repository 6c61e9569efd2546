import * as z from 'zod/mini';
import { ResourceKey, TextValue, Version } from './resource';
import type { ResourceChanges } from './resource-changes';

/**
 * Update actions of POST /{projectKey}/resource/{id}. Each action sets one field, so applying a
 * list in order is the same as applying its net changes at once: the store writes those in a
 * single conditional update, which makes the request all-or-nothing.
 */
export const updateActionSchemas = {
  doSomeThing: z.strictObject({ action: z.literal('doSomeThing') }),
  changeSomeProperty: z.strictObject({ action: z.literal('changeSomeProperty'), someProperty: TextValue }),
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
