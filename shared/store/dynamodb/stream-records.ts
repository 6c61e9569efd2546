import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { unmarshallOptions } from '../../aws/clients';
import type { ResourceChange } from '../../domain/resource-change';
import { PROJECT_PREFIX, RESOURCE_PREFIX } from './keys';
import { toResource } from './resource-items';

type Image = Record<string, AttributeValue>;

/** A record of the table's stream as Lambda hands it over (local mode's reader hands over the same). */
export interface StreamRecord {
  dynamodb?: {
    Keys?: unknown;
    SequenceNumber?: string;
    /** Epoch seconds. */
    ApproximateCreationDateTime?: number;
    NewImage?: unknown;
    OldImage?: unknown;
  };
}

/** The stream's one decoder, which alone reads the table's keys in it: a resource's write as a ResourceChange, undefined for any other item. A record it cannot read throws. */
export function resourceChangeOf({ dynamodb: data }: StreamRecord): ResourceChange | undefined {
  const image = (values: unknown) => (values ? unmarshall(values as Image, unmarshallOptions) : undefined);
  const keys = image(data?.Keys ?? data?.NewImage ?? data?.OldImage);
  if (typeof keys?.pk !== 'string' || !keys.pk.startsWith(PROJECT_PREFIX) || typeof keys.sk !== 'string' || !keys.sk.startsWith(RESOURCE_PREFIX)) return undefined;
  const [after, before] = [image(data!.NewImage), image(data!.OldImage)].map((item) => item && toResource(item));
  const resource = after ?? before;
  if (!resource || typeof resource.id !== 'string' || typeof resource.version !== 'number') throw new Error(`stream record ${data!.SequenceNumber} holds no resource`);
  const seconds = data!.ApproximateCreationDateTime;
  return {
    projectKey: keys.pk.slice(PROJECT_PREFIX.length),
    id: resource.id,
    ...(resource.key === undefined ? {} : { key: resource.key }),
    version: resource.version,
    ...(before ? { before } : {}),
    ...(after ? { after } : {}),
    sequenceNumber: String(data!.SequenceNumber),
    writtenAt: new Date(seconds === undefined ? Date.now() : seconds * 1000).toISOString(),
  };
}

/** The resource changes of a batch, in its order. */
export const resourceChangesOf = (records: readonly StreamRecord[]): ResourceChange[] => records.map(resourceChangeOf).filter((change) => change !== undefined);
