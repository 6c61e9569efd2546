import { describe, expect, it } from 'vitest';
import { VersionConflictError } from '../../shared/domain/errors';
import type { ArrayTestType } from '../../shared/domain/resource';
import { DynamoDbResourceStore } from '../../shared/store/dynamodb/resource-store';
import { draftExample, uniqueKey } from './api-client';
import { localTable } from './test-clients';

/**
 * The store writes whatever fields an update's net changes name (an update action is its schema
 * and the fields it sets, nothing in the store): checked on DynamoDB Local with a field no
 * update action sets.
 */
describe('the resource store writes the net changes of an update, whatever fields they name', () => {
  const store = () => new DynamoDbResourceStore(localTable().db, localTable().tableName);
  const content = draftExample.objectTypeProperty as ArrayTestType;
  const created = async () => {
    const resource = await store().create('demo', { key: uniqueKey('changes'), objectTypeProperty: content });
    return store().update('demo', resource.id, 1, { someProperty: 'before' });
  };

  it('stores a change of objectTypeProperty and a removal of someProperty, one version up', async () => {
    const before = await created();
    const after = await store().update('demo', before.id, 2, { objectTypeProperty: { arrayOfIntExample: [7, 8] }, someProperty: null });
    expect(after).toMatchObject({ version: 3, objectTypeProperty: { arrayOfIntExample: [7, 8] } });
    expect(after).not.toHaveProperty('someProperty');
    expect(after.lastModifiedAt > before.lastModifiedAt).toBe(true);
    expect(await store().get('demo', before.id)).toEqual(after);
  });

  it('keeps the version when the changes equal what is stored (maps compared by value, in any key order)', async () => {
    const before = await created();
    const reordered = Object.fromEntries(Object.entries(content).reverse()) as ArrayTestType;
    expect(await store().update('demo', before.id, 2, { objectTypeProperty: reordered, someProperty: 'before' })).toEqual(before);
    expect(await store().update('demo', before.id, 2, {})).toEqual(before);
    expect(await store().get('demo', before.id)).toEqual(before);
  });

  it('refuses a stale version with the current one, storing nothing', async () => {
    const before = await created();
    const stale = store().update('demo', before.id, 1, { objectTypeProperty: { arrayOfIntExample: [9] } });
    await expect(stale).rejects.toBeInstanceOf(VersionConflictError);
    await expect(stale).rejects.toMatchObject({ currentVersion: 2 });
    expect(await store().get('demo', before.id)).toEqual(before);
  });

  it('writes the other changes beside a setKey to the key the resource already holds', async () => {
    const before = await created();
    const after = await store().update('demo', before.id, 2, { key: before.key, objectTypeProperty: { arrayOfStringExample: ['cat'] } });
    expect(after).toMatchObject({ key: before.key, version: 3, objectTypeProperty: { arrayOfStringExample: ['cat'] } });
    expect(await store().getByKey('demo', before.key!)).toEqual(after);
  });
});
