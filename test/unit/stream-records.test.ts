import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { resourceChangeOf, resourceChangesOf } from '../../shared/store/dynamodb/stream-records';

const resource = (version: number) => ({
  id: 'r-1',
  key: 'first',
  version,
  createdAt: '2026-01-01T00:00:01.000Z',
  lastModifiedAt: `2026-01-01T00:00:0${version}.000Z`,
  objectTypeProperty: { arrayOfIntExample: [1, 2] },
});
const item = (version: number) => ({ pk: 'PROJECT#demo', sk: 'RESOURCE#r-1', type: 'resource', writeToken: 't', ...resource(version) });
/** A record as Lambda hands it over: images marshalled, time in epoch seconds. */
const record = (sequenceNumber: string, images: { NewImage?: Record<string, unknown>; OldImage?: Record<string, unknown> }) => {
  const { pk, sk } = (images.NewImage ?? images.OldImage)!;
  return {
    eventName: 'MODIFY',
    dynamodb: {
      Keys: marshall({ pk, sk }),
      SequenceNumber: sequenceNumber,
      ApproximateCreationDateTime: 1_767_225_660,
      ...(images.NewImage ? { NewImage: marshall(images.NewImage) } : {}),
      ...(images.OldImage ? { OldImage: marshall(images.OldImage) } : {}),
    },
  };
};

describe('the stream decoder', () => {
  it('reads a resource write as the change of its project: the resource before and after, the stream position and time', () => {
    expect(resourceChangeOf(record('7', { OldImage: item(1), NewImage: item(2) }))).toEqual({
      projectKey: 'demo',
      id: 'r-1',
      key: 'first',
      version: 2,
      before: resource(1),
      after: resource(2),
      sequenceNumber: '7',
      writtenAt: '2026-01-01T00:01:00.000Z',
    });
    const deleted = resourceChangeOf(record('8', { OldImage: item(2) }));
    expect([deleted?.version, deleted?.before, deleted?.after]).toEqual([2, resource(2), undefined]);
    const created = resourceChangeOf(record('6', { NewImage: item(1) }));
    expect([created?.version, created?.before, created?.after]).toEqual([1, undefined, resource(1)]);
  });

  it('passes over every other item of the table', () => {
    const others = [
      { pk: 'PROJECT#demo', sk: 'KEY#first', resourceId: 'r-1' },
      { pk: 'PROJECT#demo', sk: 'STATS#03', resources: 1 },
      { pk: 'PARKED', sk: 'RESOURCE#x' },
      { pk: 'CLIENT#c', sk: 'CLIENT' },
    ];
    expect(resourceChangesOf([...others.map((NewImage, index) => record(String(index), { NewImage })), record('9', { NewImage: item(1) })]).map((change) => change.sequenceNumber)).toEqual(['9']);
  });

  it('refuses a resource record it cannot read', () => {
    expect(() => resourceChangeOf(record('5', { NewImage: { pk: 'PROJECT#demo', sk: 'RESOURCE#r-1', id: 'r-1' } }))).toThrow(/stream record 5 holds no resource/);
  });
});
