import { describe, expect, it } from 'vitest';
import type { Resource } from '../../../shared/domain/resource';
import type { ResourceChange } from '../../../shared/domain/resource-change';
import { notificationId, notificationOf } from '../../../shared/domain/subscriptions/notification';

const resource = (version: number): Resource => ({
  id: 'r-1',
  key: 'first',
  version,
  createdAt: '2026-01-01T00:00:01.000Z',
  lastModifiedAt: `2026-01-01T00:00:0${version}.000Z`,
  objectTypeProperty: {},
});
const at = '2026-01-01T00:01:00.000Z';
const change = (before?: Resource, after?: Resource): ResourceChange => ({
  projectKey: 'demo',
  id: 'r-1',
  key: 'first',
  version: (after ?? before)!.version,
  ...(before ? { before } : {}),
  ...(after ? { after } : {}),
  sequenceNumber: '1',
  writtenAt: at,
});

describe('notificationOf', () => {
  it('reads a resource write as commercetools change notifications', () => {
    expect(notificationOf(change(undefined, resource(1)))).toEqual({
      notificationType: 'ResourceCreated',
      projectKey: 'demo',
      resource: { typeId: 'resource', id: 'r-1' },
      resourceUserProvidedIdentifiers: { key: 'first' },
      version: 1,
      modifiedAt: '2026-01-01T00:00:01.000Z',
    });
    expect(notificationOf(change(resource(1), resource(2)))).toMatchObject({ notificationType: 'ResourceUpdated', version: 2, oldVersion: 1, modifiedAt: '2026-01-01T00:00:02.000Z' });
    expect(notificationOf(change(resource(2)))).toMatchObject({ notificationType: 'ResourceDeleted', version: 2, modifiedAt: at });
  });

  it('ignores a write that keeps the version', () => {
    expect(notificationOf(change(resource(2), resource(2)))).toBeUndefined();
  });

  it('names each delivery stably, in stream order', () => {
    expect(notificationId('s', '9')).toBe(notificationId('s', '9'));
    expect(notificationId('s', '9') < notificationId('s', '10')).toBe(true);
  });
});
