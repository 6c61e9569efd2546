import * as z from 'zod/mini';
import { ResourceKey, TextValue, Version } from './resource';
import type { ResourceChanges } from './resource-changes';

/**
 * Update actions of POST /{projectKey}/resource/{id}: each is its schema and the fields it sets.
 * Applying a list in order is the same as applying its net changes at once (a later action's field
 * wins): the store writes those in a single conditional update, whatever fields they are, which
 * makes the request all-or-nothing.
 */
const action = <Schema extends z.ZodMiniType>(schema: Schema, changes: (action: z.infer<Schema>) => ResourceChanges) => ({ schema, changes });

export const updateActions = {
  doSomeThing: action(z.strictObject({ action: z.literal('doSomeThing') }), () => ({})),
  changeSomeProperty: action(z.strictObject({ action: z.literal('changeSomeProperty'), someProperty: TextValue }), ({ someProperty }) => ({ someProperty })),
  /** This service's own (the Generic Resource Service has no action for the key): sets the key, or removes it when `key` is absent. */
  setKey: action(z.strictObject({ action: z.literal('setKey'), key: z.optional(ResourceKey) }), ({ key }) => ({ key: key ?? null })),
};

export type UpdateActionName = keyof typeof updateActions;
export type UpdateAction = z.infer<(typeof updateActions)[UpdateActionName]['schema']>;

export const MAX_UPDATE_ACTIONS = 500;

export const UpdateRequest = z.strictObject({ version: Version, actions: z.array(z.unknown()).check(z.maxLength(MAX_UPDATE_ACTIONS)) });

export function isUpdateActionName(name: unknown): name is UpdateActionName {
  return typeof name === 'string' && Object.hasOwn(updateActions, name);
}

export function netChanges(actions: readonly UpdateAction[]): ResourceChanges {
  const changesOf = (update: UpdateAction) => (updateActions[update.action].changes as (update: UpdateAction) => ResourceChanges)(update);
  return Object.assign({}, ...actions.map(changesOf)) as ResourceChanges;
}
