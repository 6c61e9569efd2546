import { describe, expect, it } from 'vitest';
import { notificationId, notificationOf } from '../../../shared/domain/subscriptions/notification';

const item = (version: number, extra: Record<string, unknown> = {}) => ({
  pk: 'PROJECT#demo',
  sk: 'RESOURCE#r-1',
  id: 'r-1',
  key: 'first',
  version,
  lastModifiedAt: `2026-01-01T00:00:0${version}.000Z`,
  ...extra,
});
const at = '2026-01-01T00:01:00.000Z';

describe('notificationOf', () => {
  it('reads a resource write as commercetools change notifications', () => {
    expect(notificationOf({ sequenceNumber: '1', writtenAt: at, newImage: item(1) })).toEqual({
      notificationType: 'ResourceCreated',
      projectKey: 'demo',
      resource: { typeId: 'resource', id: 'r-1' },
      resourceUserProvidedIdentifiers: { key: 'first' },
      version: 1,
      modifiedAt: '2026-01-01T00:00:01.000Z',
    });
    expect(notificationOf({ sequenceNumber: '2', writtenAt: at, oldImage: item(1), newImage: item(2) })).toMatchObject({
      notificationType: 'ResourceUpdated',
      version: 2,
      oldVersion: 1,
    });
    expect(notificationOf({ sequenceNumber: '3', writtenAt: at, oldImage: item(2) })).toMatchObject({ notificationType: 'ResourceDeleted', version: 2, modifiedAt: at });
  });

  it('ignores every other item, and writes that keep the version', () => {
    expect(notificationOf({ sequenceNumber: '1', writtenAt: at, newImage: { pk: 'PROJECT#demo', sk: 'KEY#first' } })).toBeUndefined();
    expect(notificationOf({ sequenceNumber: '1', writtenAt: at, newImage: { pk: 'PARKED', sk: 'RESOURCE#x' } })).toBeUndefined();
    expect(notificationOf({ sequenceNumber: '1', writtenAt: at, oldImage: item(2), newImage: item(2) })).toBeUndefined();
  });

  it('names each delivery stably, in stream order', () => {
    expect(notificationId('s', '9')).toBe(notificationId('s', '9'));
    expect(notificationId('s', '9') < notificationId('s', '10')).toBe(true);
  });
});
