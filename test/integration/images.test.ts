import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { paginateListObjectsV2, S3Client } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { LAMBDA_PAYLOAD_LIMIT_BYTES } from '../../local/lambda-events';
import { LOCAL_IMAGES_BUCKET } from '../../local/stack';
import { MAX_IMAGE_BYTES, MAX_IMAGE_SIDE } from '../../shared/domain/images/image-file';
import type { Image } from '../../shared/domain/images/variant';
import { MAX_VARIANT_IMAGES } from '../../shared/domain/images/variant-limits';
import { projectPartition } from '../../shared/store/dynamodb/keys';
import { GIF_1X1, png, pngDeclaring } from '../support/images';
import { call, tokenFor, uniqueKey } from './api-client';
import { localTable } from './test-clients';


const upload = async (query: string, body: Buffer | undefined, contentType = 'image/png', scope = 'manage_products:demo') =>
  call('POST', `/demo/resource/images?${query}`, {
    token: await tokenFor(scope),
    body,
    headers: body === undefined ? {} : { 'content-type': contentType },
  });

describe('image upload (POST /{projectKey}/resource/images)', () => {
  it('stores the image, creates the variant on its first image, and serves the same bytes', async () => {
    const sku = uniqueKey('sku');
    const image = png(3, 2);
    const answer = await upload(`sku=${sku}&filename=front.png`, image);
    expect(answer.status).toBe(200);
    // The answer: {id, sku, images: [address...], stagedImages: [...]}, each address fetchable.
    expect(answer.body).toEqual({ id: expect.stringMatching(/^\d+$/), sku, images: [], stagedImages: [expect.stringMatching(/\/front\.png$/)] });
    const [staged] = answer.body.stagedImages;

    const served = await fetch(staged);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
  });

  it('staged=false publishes to images too; later images append to the same variant', async () => {
    const sku = uniqueKey('sku');
    const first = await upload(`sku=${sku}`, png(1, 1));
    const second = await upload(`sku=${sku}&variant=${first.body.id}&staged=false`, GIF_1X1, 'image/gif');
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.stagedImages).toHaveLength(2);
    expect(second.body.images).toEqual([second.body.stagedImages[1]]);
    expect(second.body.images[0]).toMatch(/\/img$/);
    expect((await fetch(second.body.images[0])).headers.get('content-type')).toBe('image/gif');
  });

  it('selects a variant by number alone, creating it when new', async () => {
    const id = 100_000 + Math.floor(Math.random() * 1_000_000);
    const first = await upload(`variant=${id}`, png(2, 2));
    expect(first.body).toMatchObject({ id: String(id), stagedImages: [expect.any(String)] });
    expect(first.body.sku).toBeUndefined();
    const again = await upload(`variant=${id}`, png(2, 2));
    expect(again.body.stagedImages).toHaveLength(2);
  });

  it('a new sku alone gets the next free number, past numbers clients gave their variants (not 409 after six)', async () => {
    const first = await upload(`sku=${uniqueKey('sku')}`, GIF_1X1, 'image/gif');
    const next = Number(first.body.id) + 1;
    // The next eight numbers taken by hand, as a client numbering its variants would.
    for (let id = next; id < next + 8; id++) expect((await upload(`variant=${id}`, GIF_1X1, 'image/gif')).status).toBe(200);
    const skuAlone = await upload(`sku=${uniqueKey('sku')}`, GIF_1X1, 'image/gif');
    expect(skuAlone.status, JSON.stringify(skuAlone.body)).toBe(200);
    expect(Number(skuAlone.body.id)).toBeGreaterThanOrEqual(next + 8);
  });

  it('refuses a sku and a variant that name different variants', async () => {
    const [a, b] = [uniqueKey('sku'), uniqueKey('sku')];
    const first = await upload(`sku=${a}`, png(1, 1));
    await upload(`sku=${b}`, png(1, 1));
    const mismatch = await upload(`sku=${b}&variant=${first.body.id}`, png(1, 1));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors[0].code).toBe('InvalidOperation');
  });

  it('keeps the object key unsteerable by filename', async () => {
    const answer = await upload(`sku=${uniqueKey('sku')}&filename=${encodeURIComponent('../../etc/passwd')}`, png(1, 1));
    expect(answer.status).toBe(200);
    const [url] = answer.body.stagedImages;
    expect(new URL(url).pathname).toMatch(/^\/demo\/images\/[0-9a-f-]{36}\/etc-passwd$/);
  });

  it('serves images with X-Content-Type-Options: nosniff (CloudFront\'s response headers policy in AWS)', async () => {
    const answer = await upload(`sku=${uniqueKey('sku')}`, GIF_1X1, 'image/gif');
    const served = await fetch(answer.body.stagedImages[0]);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-type')).toBe('image/gif');
  });

  it('names the file by its checked type: filename=x.html with GIF bytes is stored as x.gif', async () => {
    const answer = await upload(`sku=${uniqueKey('sku')}&filename=x.html`, GIF_1X1, 'image/gif');
    expect(answer.status).toBe(200);
    const [url] = answer.body.stagedImages;
    expect(new URL(url).pathname).toMatch(/\/x\.gif$/);
  });

  it(`refuses an image declaring more than ${MAX_IMAGE_SIDE}×${MAX_IMAGE_SIDE} pixels with 400 naming the limit`, async () => {
    const answer = await upload(`sku=${uniqueKey('sku')}`, pngDeclaring(2147483647, 2147483647));
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ code: 'InvalidInput', message: expect.stringContaining(`at most ${MAX_IMAGE_SIDE}×${MAX_IMAGE_SIDE} pixels`) });
  });

  it('refuses what is not a JPEG, PNG or GIF by its bytes, an empty body, and a missing selector', async () => {
    const lying = await upload(`sku=${uniqueKey()}`, Buffer.from('definitely not a png'), 'image/png');
    expect(lying.status).toBe(415);
    const mismatch = await upload(`sku=${uniqueKey()}`, GIF_1X1, 'image/png');
    expect(mismatch.status).toBe(415);
    const webp = await upload(`sku=${uniqueKey()}`, png(1, 1), 'image/webp');
    expect(webp.status).toBe(415);
    const empty = await upload(`sku=${uniqueKey()}`, undefined);
    expect(empty.status).toBe(400);
    const unselected = await upload('', png(1, 1));
    expect(unselected.status).toBe(400);
    expect(unselected.body.errors[0].message).toContain('sku');
    const badVariant = await upload('variant=abc', png(1, 1));
    expect(badVariant.status).toBe(400);
  });

  it('refuses images over the limit with 413', async () => {
    const big = Buffer.concat([png(1, 1), Buffer.alloc(4_500_000)]);
    const answer = await upload(`sku=${uniqueKey()}`, big);
    expect(answer.status).toBe(413);
    expect(answer.body.errors[0]).toMatchObject({ code: 'RequestEntityTooLarge', message: expect.stringContaining(String(MAX_IMAGE_BYTES)) });
  });

  it('an image whose request passes Lambda\'s 6,291,456-byte payload (base64: ≈4.72 MB raw) never reaches the function: the gateway\'s 413', async () => {
    const big = Buffer.concat([png(1, 1), Buffer.alloc(4_800_000)]);
    const answer = await upload(`sku=${uniqueKey()}`, big);
    expect(answer.status).toBe(413);
    expect(answer.body.errors[0]).toMatchObject({ code: 'RequestEntityTooLarge', message: expect.stringContaining(String(LAMBDA_PAYLOAD_LIMIT_BYTES)) });
  });

  it('needs manage_products: manage_test alone is 403', async () => {
    const answer = await upload(`sku=${uniqueKey()}`, png(1, 1), 'image/png', 'manage_test:demo');
    expect(answer.status).toBe(403);
    expect(answer.body.errors[0]).toMatchObject({ code: 'insufficient_scope', message: expect.stringContaining('manage_products:demo') });
  });
});

describe(`at most ${MAX_VARIANT_IMAGES} images per variant`, () => {
  /** An image as large as one can be stored: the longest URL in AWS (MAX_VARIANT_IMAGES' sizing) and file name. */
  const largestImage = (): Image => ({
    url: `https://${'d'.repeat(49)}.cloudfront.net/${'p'.repeat(256)}/images/${randomUUID()}/${'f'.repeat(100)}`,
    dimensions: { w: MAX_IMAGE_SIDE, h: MAX_IMAGE_SIDE },
    contentType: 'image/jpeg',
    label: 'f'.repeat(100),
  });

  /** The keys the S3 emulator holds under the project's images. */
  async function imageKeys(): Promise<string[]> {
    const { s3Endpoint } = JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8')) as { s3Endpoint: string };
    const s3 = new S3Client({ endpoint: s3Endpoint, region: 'local', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const keys: string[] = [];
    for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket: LOCAL_IMAGES_BUCKET, Prefix: 'demo/images/' })) {
      keys.push(...(page.Contents ?? []).map((object) => object.Key!));
    }
    return keys;
  }

  it('takes the last image a variant holding the largest images has room for, then refuses with 400 and deletes the refused object', async () => {
    // Seeded straight into the table, one short of the limit in both lists, with the longest sku.
    const { db, tableName } = localTable();
    const id = 900_000_000 + Math.floor(Math.random() * 90_000_000);
    const sku = `${uniqueKey('sku')}-`.padEnd(256, 's');
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          pk: projectPartition('demo'),
          sk: `VARIANT#${id}`,
          type: 'variant',
          id,
          sku,
          images: Array.from({ length: MAX_VARIANT_IMAGES - 1 }, largestImage),
          stagedImages: Array.from({ length: MAX_VARIANT_IMAGES - 1 }, largestImage),
        },
      }),
    );
    await db.send(new PutCommand({ TableName: tableName, Item: { pk: projectPartition('demo'), sk: `SKU#${sku}`, type: 'variant-sku', variantId: id } }));

    const last = await upload(`sku=${sku}&variant=${id}&staged=false&filename=${'f'.repeat(100)}`, GIF_1X1, 'image/gif');
    expect(last.status).toBe(200);
    expect(last.body.images).toHaveLength(MAX_VARIANT_IMAGES);
    expect(last.body.stagedImages).toHaveLength(MAX_VARIANT_IMAGES);

    const refusedName = `refused-${randomUUID()}.gif`;
    const refused = await upload(`sku=${sku}&staged=false&filename=${refusedName}`, GIF_1X1, 'image/gif');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toEqual({
      code: 'InvalidOperation',
      message: `Variant ${id} holds the maximum of ${MAX_VARIANT_IMAGES} images: no more can be attached.`,
    });
    // Staged only is refused the same way.
    expect((await upload(`variant=${id}&filename=${refusedName}`, GIF_1X1, 'image/gif')).status).toBe(400);

    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { pk: projectPartition('demo'), sk: `VARIANT#${id}` }, ConsistentRead: true }));
    expect(Item!.stagedImages).toHaveLength(MAX_VARIANT_IMAGES);
    expect(Item!.images).toHaveLength(MAX_VARIANT_IMAGES);
    // The accepted image's object is there, the refused ones' are not.
    const keys = await imageKeys();
    expect(keys).toContain(new URL(last.body.images.at(-1)).pathname.slice(1));
    expect(keys.filter((key) => key.endsWith(`/${refusedName}`))).toEqual([]);
  });
});
