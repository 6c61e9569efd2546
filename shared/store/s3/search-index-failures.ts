import { randomUUID } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { SearchIndexFailures } from '../search-index-failures';

/** The indexer's own objects; Lambda writes its on-failure records under `aws/lambda/`. */
const SET_ASIDE_PREFIX = 'set-aside/';

/**
 * The failure destination in S3: one object per record set aside (`{ reason, failedAt, record }`,
 * named by its sequence number, so setting one aside again overwrites it), beside the invocation
 * records the event source mapping writes for a batch it gave up (`payload`: the event as a JSON string).
 */
export class S3SearchIndexFailures implements SearchIndexFailures {
  constructor(
    private readonly client: () => S3Client,
    private readonly bucket: () => string,
  ) {}

  async setAside(record: unknown, reason: string): Promise<void> {
    const sequenceNumber = (record as { dynamodb?: { SequenceNumber?: unknown } } | undefined)?.dynamodb?.SequenceNumber;
    const Key = `${SET_ASIDE_PREFIX}${typeof sequenceNumber === 'string' ? sequenceNumber : randomUUID()}.json`;
    const Body = JSON.stringify({ reason, failedAt: new Date().toISOString(), record });
    await this.client().send(new PutObjectCommand({ Bucket: this.bucket(), Key, Body, ContentType: 'application/json' }));
  }

  async list(after?: string): Promise<{ keys: string[]; next?: string }> {
    const answer = await this.client().send(new ListObjectsV2Command({ Bucket: this.bucket(), StartAfter: after }));
    const keys = (answer.Contents ?? []).map((object) => object.Key!);
    return answer.IsTruncated && keys.length > 0 ? { keys, next: keys.at(-1) } : { keys };
  }

  async read(key: string): Promise<unknown[]> {
    const { Body } = await this.client().send(new GetObjectCommand({ Bucket: this.bucket(), Key: key }));
    const kept = JSON.parse((await Body?.transformToString()) ?? '{}') as { record?: unknown; payload?: unknown };
    if (kept.record !== undefined) return [kept.record];
    if (typeof kept.payload === 'string') return (JSON.parse(kept.payload) as { Records?: unknown[] }).Records ?? [];
    throw new Error(`${key} holds neither a record set aside nor an on-failure record with its payload`);
  }

  async remove(key: string): Promise<void> {
    await this.client().send(new DeleteObjectCommand({ Bucket: this.bucket(), Key: key }));
  }
}
