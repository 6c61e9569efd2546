import { describe, expect, it } from 'vitest';
import { ObjectTestType, type Resource } from '../../../shared/domain/resource.js';
import {
  MAX_UPDATE_ACTIONS,
  UpdateRequest,
  isUpdateActionName,
  netChanges,
  updateActions,
  type UpdateAction,
} from '../../../shared/domain/update-actions.js';
import { applyChanges, changesAlter, modificationTime } from '../../../shared/domain/resource-changes.js';
import { arrayTestType, copy, exampleResourceUpdate } from './fixtures.js';

const NOW = '2024-06-01T12:00:00.000Z';

const resource = (overrides: Partial<Resource> = {}): Resource => ({
  id: '6f2b1d8e-3c1a-4b7e-9f00-0a1b2c3d4e5f',
  key: 'alpha',
  version: 4,
  createdAt: '2024-01-01T10:00:00.000Z',
  lastModifiedAt: '2024-01-02T10:00:00.000Z',
  objectTypeProperty: copy(arrayTestType),
  someProperty: 'hello',
  ...overrides,
});

describe('isUpdateActionName', () => {
  it.each(['doSomeThing', 'changeSomeProperty', 'setKey'])('knows %s', (name) => {
    expect(isUpdateActionName(name)).toBe(true);
  });

  it.each(['dosomething', 'changeKey', '', 'toString', 'constructor', '__proto__', 'hasOwnProperty'])('does not know %j', (name) => {
    expect(isUpdateActionName(name)).toBe(false);
  });

  it.each([undefined, null, 1, {}, ['setKey']])('is false for the non-string %j', (name) => {
    expect(isUpdateActionName(name)).toBe(false);
  });
});

describe('updateActions schemas', () => {
  it('accepts the actions of example-resource-update.json', () => {
    for (const action of exampleResourceUpdate.actions) {
      expect(isUpdateActionName(action.action)).toBe(true);
      const schema = updateActions[action.action as keyof typeof updateActions].schema;
      expect(schema.parse(action)).toEqual(action);
    }
  });

  it('doSomeThing refuses extra fields', () => {
    expect(updateActions.doSomeThing.schema.safeParse({ action: 'doSomeThing', someProperty: 'x' }).success).toBe(false);
  });

  it('changeSomeProperty requires a string of at most 4096 characters', () => {
    const schema = updateActions.changeSomeProperty.schema;
    expect(schema.safeParse({ action: 'changeSomeProperty' }).success).toBe(false);
    expect(schema.safeParse({ action: 'changeSomeProperty', someProperty: 5 }).success).toBe(false);
    expect(schema.safeParse({ action: 'changeSomeProperty', someProperty: '' }).success).toBe(true);
    expect(schema.safeParse({ action: 'changeSomeProperty', someProperty: 'x'.repeat(4096) }).success).toBe(true);
    expect(schema.safeParse({ action: 'changeSomeProperty', someProperty: 'x'.repeat(4097) }).success).toBe(false);
  });

  it('setKey takes an optional key that must follow the key pattern', () => {
    const schema = updateActions.setKey.schema;
    expect(schema.safeParse({ action: 'setKey' }).success).toBe(true);
    expect(schema.safeParse({ action: 'setKey', key: 'new-key' }).success).toBe(true);
    expect(schema.safeParse({ action: 'setKey', key: 'x' }).success).toBe(false);
    expect(schema.safeParse({ action: 'setKey', key: 'has space' }).success).toBe(false);
  });

  it('refuses an action object whose action literal does not match its schema', () => {
    expect(updateActions.setKey.schema.safeParse({ action: 'doSomeThing' }).success).toBe(false);
  });
});

describe('UpdateRequest', () => {
  it('accepts example-resource-update.json', () => {
    expect(UpdateRequest.parse(copy(exampleResourceUpdate))).toEqual(exampleResourceUpdate);
  });

  it('accepts exactly 500 actions and refuses 501', () => {
    expect(MAX_UPDATE_ACTIONS).toBe(500);
    const actions = (n: number) => Array.from({ length: n }, () => ({ action: 'doSomeThing' }));
    expect(UpdateRequest.safeParse({ version: 1, actions: actions(500) }).success).toBe(true);
    const result = UpdateRequest.safeParse({ version: 1, actions: actions(501) });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(['actions']);
  });

  it('requires version and actions', () => {
    const result = UpdateRequest.safeParse({});
    expect(result.error!.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['actions', 'version']);
  });

  it.each([0, -1, 1.5, '1', null])('refuses version %j', (version) => {
    expect(UpdateRequest.safeParse({ version, actions: [] }).success).toBe(false);
  });

  it('refuses actions that are not an array', () => {
    expect(UpdateRequest.safeParse({ version: 1, actions: { action: 'doSomeThing' } }).success).toBe(false);
  });

  it('refuses unknown top-level fields', () => {
    expect(UpdateRequest.safeParse({ version: 1, actions: [], dryRun: true }).success).toBe(false);
  });

  it('leaves the actions themselves unchecked (each is validated against its own schema later)', () => {
    expect(UpdateRequest.parse({ version: 1, actions: [{ action: 'nope' }, 42] }).actions).toEqual([{ action: 'nope' }, 42]);
  });
});

describe('netChanges', () => {
  it('is empty for no actions and for doSomeThing', () => {
    expect(netChanges([])).toEqual({});
    expect(netChanges([{ action: 'doSomeThing' }, { action: 'doSomeThing' }])).toEqual({});
  });

  it('sets someProperty from changeSomeProperty', () => {
    expect(netChanges([{ action: 'changeSomeProperty', someProperty: 'any string' }])).toEqual({ someProperty: 'any string' });
  });

  it('keeps the last value when a field is set more than once', () => {
    const actions: UpdateAction[] = [
      { action: 'changeSomeProperty', someProperty: 'first' },
      { action: 'setKey', key: 'one' },
      { action: 'changeSomeProperty', someProperty: 'second' },
      { action: 'setKey', key: 'two' },
    ];
    expect(netChanges(actions)).toEqual({ someProperty: 'second', key: 'two' });
  });

  it('turns setKey without a key into a removal (null)', () => {
    expect(netChanges([{ action: 'setKey' }])).toEqual({ key: null });
  });

  it('lets a later setKey undo an earlier removal and vice versa', () => {
    expect(netChanges([{ action: 'setKey' }, { action: 'setKey', key: 'back' }])).toEqual({ key: 'back' });
    expect(netChanges([{ action: 'setKey', key: 'gone' }, { action: 'setKey' }])).toEqual({ key: null });
  });

  it('keeps an empty someProperty (it is a value, not an absence)', () => {
    expect(netChanges([{ action: 'changeSomeProperty', someProperty: '' }])).toEqual({ someProperty: '' });
  });
});

describe('changesAlter', () => {
  it('compares any field by value: objectTypeProperty alike in another key order is no change', () => {
    const reordered = Object.fromEntries(Object.entries(copy(arrayTestType)).reverse()) as Resource['objectTypeProperty'];
    expect(changesAlter(resource(), { objectTypeProperty: reordered })).toBe(false);
    expect(changesAlter(resource(), { objectTypeProperty: { arrayOfIntExample: [7] } })).toBe(true);
  });

  it('is true when an existing someProperty is removed and false when an absent one is', () => {
    expect(changesAlter(resource(), { someProperty: null })).toBe(true);
    expect(changesAlter(resource({ someProperty: undefined }), { someProperty: null })).toBe(false);
  });

  it('is false for no changes', () => {
    expect(changesAlter(resource(), {})).toBe(false);
  });

  it('is false when someProperty is set to its current value', () => {
    expect(changesAlter(resource(), { someProperty: 'hello' })).toBe(false);
  });

  it('is true when someProperty changes, including from absent to empty', () => {
    expect(changesAlter(resource(), { someProperty: 'bye' })).toBe(true);
    expect(changesAlter(resource({ someProperty: undefined }), { someProperty: '' })).toBe(true);
  });

  it('is false when the key is set to its current value', () => {
    expect(changesAlter(resource(), { key: 'alpha' })).toBe(false);
  });

  it('is true when the key changes or is added', () => {
    expect(changesAlter(resource(), { key: 'beta' })).toBe(true);
    expect(changesAlter(resource({ key: undefined }), { key: 'beta' })).toBe(true);
  });

  it('is true when an existing key is removed and false when an absent key is removed', () => {
    expect(changesAlter(resource(), { key: null })).toBe(true);
    expect(changesAlter(resource({ key: undefined }), { key: null })).toBe(false);
  });
});

describe('applyChanges', () => {
  it('returns the very same resource when nothing changes (no version bump)', () => {
    const before = resource();
    expect(applyChanges(before, { someProperty: 'hello', key: 'alpha' }, NOW)).toBe(before);
    expect(applyChanges(before, {}, NOW)).toBe(before);
  });

  it('sets someProperty, bumps the version by one and stamps lastModifiedAt', () => {
    const before = resource();
    const after = applyChanges(before, { someProperty: 'any string' }, NOW);
    expect(after).toEqual({ ...before, someProperty: 'any string', version: 5, lastModifiedAt: NOW });
  });

  it('sets whatever field the changes name, and removes those set to null', () => {
    const after = applyChanges(resource(), { objectTypeProperty: { arrayOfIntExample: [7] }, someProperty: null }, NOW);
    expect(after).toEqual({ ...resource({ someProperty: undefined }), objectTypeProperty: { arrayOfIntExample: [7] }, version: 5, lastModifiedAt: NOW });
    expect(after).not.toHaveProperty('someProperty');
  });

  it('keeps id, createdAt and objectTypeProperty', () => {
    const before = resource();
    const after = applyChanges(before, { key: 'beta' }, NOW);
    expect(after.id).toBe(before.id);
    expect(after.createdAt).toBe(before.createdAt);
    expect(after.objectTypeProperty).toEqual(before.objectTypeProperty);
  });

  it('does not mutate the input resource', () => {
    const before = resource();
    const snapshot = structuredClone(before);
    applyChanges(before, { someProperty: 'changed', key: null }, NOW);
    expect(before).toEqual(snapshot);
  });

  it('removes the key property entirely on key: null', () => {
    const after = applyChanges(resource(), { key: null }, NOW);
    expect(after).not.toHaveProperty('key');
    expect(Object.keys(after)).not.toContain('key');
    expect(after.version).toBe(5);
  });

  it('keeps the current key when only someProperty changes', () => {
    expect(applyChanges(resource(), { someProperty: 'x' }, NOW).key).toBe('alpha');
  });

  it('adds a key to a resource without one', () => {
    const after = applyChanges(resource({ key: undefined }), { key: 'fresh' }, NOW);
    expect(after.key).toBe('fresh');
    expect(after.version).toBe(5);
  });

  it('applies both changes in a single version step', () => {
    const after = applyChanges(resource(), netChanges([
      { action: 'changeSomeProperty', someProperty: 'a' },
      { action: 'setKey', key: 'k1' },
      { action: 'changeSomeProperty', someProperty: 'b' },
    ]), NOW);
    expect(after).toMatchObject({ someProperty: 'b', key: 'k1', version: 5, lastModifiedAt: NOW });
  });

  it('produces a resource that still satisfies the stored-resource schema', () => {
    expect(ObjectTestType.safeParse(applyChanges(resource(), { key: null, someProperty: 'z' }, NOW)).success).toBe(true);
  });
});

describe('modificationTime', () => {
  it('is now when now is later than the resource\'s time, else one millisecond after that time', () => {
    expect(modificationTime('2026-11-25T20:00:00.005Z', '2026-11-25T20:00:00.004Z')).toBe('2026-11-25T20:00:00.005Z');
    expect(modificationTime('2026-11-25T20:00:00.004Z', '2026-11-25T20:00:00.004Z')).toBe('2026-11-25T20:00:00.005Z');
    expect(modificationTime('2026-11-25T20:00:00.001Z', '2026-11-25T20:00:00.999Z')).toBe('2026-11-25T20:00:01.000Z');
    expect(modificationTime('2026-11-25T20:00:00.001Z', undefined)).toBe('2026-11-25T20:00:00.001Z');
  });
});
