import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, draftExample, tokenFor, uniqueKey } from './api-client';

/** POST /{projectKey}/resource/artificially-complex/path/uri-parameter-one={one}/{two}. */
const example = JSON.parse(
  readFileSync(new URL('../fixtures/examples/out-of-order-properties-test-type.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

/** test/fixtures/examples/out-of-order-properties-test-type.json naming a real resource: its id is not one, so id/key are replaced (or removed when undefined). */
function bodyWith(overrides: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...structuredClone(example), ...overrides };
  for (const [field, value] of Object.entries(overrides)) if (value === undefined) delete body[field];
  return body;
}

/** A fresh path of its own for each test. */
const freshPath = (project = 'demo') =>
  `/${project}/resource/artificially-complex/path/uri-parameter-one=${uniqueKey('one')}/${uniqueKey('two')}`;

async function createResource(draft: Record<string, unknown> = {}) {
  const made = await call('POST', '/demo/resource', { token: await tokenFor(), json: { ...draftExample, ...draft } });
  expect(made.status).toBe(201);
  return made.body as { id: string; key?: string; version: number; objectTypeProperty: unknown };
}

const post = async (path: string, json: unknown, token?: string) => call('POST', path, { token: token ?? (await tokenFor()), json });

function expectError(answer: { status: number; body: any }, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.body).toMatchObject({ statusCode: status, message: expect.any(String), errors: expect.arrayContaining([expect.objectContaining({ code })]) });
  expect(answer.body.errors.length).toBeGreaterThan(0);
  expect(answer.body.message).toBe(answer.body.errors[0].message);
}

describe('POST artificially-complex path', () => {
  it('answers 201 for a new document, then 200 when it replaces it, each with the objectTypeProperty', async () => {
    const resource = await createResource();
    const path = freshPath();
    const body = bodyWith({ id: resource.id, key: undefined, version: '1' });

    const first = await post(path, body);
    expect(first.status).toBe(201);
    expect(first.body).toEqual(draftExample.objectTypeProperty);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(first.headers.get('x-correlation-id')).toBeTruthy();

    const second = await post(path, { ...body, custom: 'replaced' });
    expect(second).toMatchObject({ status: 200, body: draftExample.objectTypeProperty });

    // Another uriParameterTwo under the same uriParameterOne is another document.
    const sibling = `${path.slice(0, path.lastIndexOf('/'))}/${uniqueKey('two')}`;
    expect((await post(sibling, body)).status).toBe(201);
  });

  it('keeps documents and resource lookups apart by project', async () => {
    const token = await tokenFor();
    const resource = await createResource();
    const path = freshPath();
    const body = bodyWith({ id: resource.id, key: undefined, version: undefined });
    expect((await post(path, body)).status).toBe(201);

    // The resource of `demo` does not exist in `other`.
    const otherPath = path.replace('/demo/', '/other/');
    expectError(await post(otherPath, body), 404, 'ResourceNotFound');

    // The same path in `other` is a new place: its first document there is new (201).
    const otherResource = await call('POST', '/other/resource', { token, json: draftExample });
    expect((await post(otherPath, bodyWith({ id: otherResource.body.id, key: undefined, version: '1' }))).status).toBe(201);
    expect((await post(path, body)).status).toBe(200);
  });

  it('answers 203 with the current objectTypeProperty when the body version is not the current one', async () => {
    const key = uniqueKey();
    const resource = await createResource({ key });
    const current = { ...draftExample.objectTypeProperty, arrayOfStringExample: ['current'] };
    const overwritten = await call('PUT', '/demo/resource', { token: await tokenFor(), json: { key, objectTypeProperty: current } });
    expect(overwritten.body.version).toBe(2);

    const path = freshPath();
    const stale = await post(path, bodyWith({ id: resource.id, key: undefined, version: '1' }));
    expect(stale).toMatchObject({ status: 203, body: current });

    // The 203 stored the document too: the same path again, at the right version, replaces it.
    const matching = await post(path, bodyWith({ id: resource.id, key: undefined, version: '2' }));
    expect(matching).toMatchObject({ status: 200, body: current });
  });

  it('treats a body without version as matching the current version', async () => {
    const resource = await createResource();
    const answer = await post(freshPath(), bodyWith({ id: resource.id, key: undefined, version: undefined }));
    expect(answer).toMatchObject({ status: 201, body: draftExample.objectTypeProperty });
  });

  it('finds the resource by key when the body has no id', async () => {
    const key = uniqueKey();
    await createResource({ key, objectTypeProperty: { arrayOfStringExample: ['by key'] } });
    const answer = await post(freshPath(), bodyWith({ id: undefined, key, version: '1' }));
    expect(answer).toMatchObject({ status: 201, body: { arrayOfStringExample: ['by key'] } });
  });

  it('answers 404 ResourceNotFound for an unknown id or key, and stores nothing', async () => {
    const path = freshPath();
    const unknownId = await post(path, bodyWith({ id: '3f1b7a3e-0000-4000-8000-000000000000', key: undefined }));
    expectError(unknownId, 404, 'ResourceNotFound');
    expect(unknownId.body.message).toContain('3f1b7a3e-0000-4000-8000-000000000000');

    // The example's own id is not a resource id.
    expectError(await post(path, example), 404, 'ResourceNotFound');

    const unknownKey = await post(path, bodyWith({ id: undefined, key: uniqueKey('missing') }));
    expectError(unknownKey, 404, 'ResourceNotFound');

    // Nothing was stored at the path: the first successful write there is new.
    const resource = await createResource();
    expect((await post(path, bodyWith({ id: resource.id, key: undefined, version: '1' }))).status).toBe(201);
  });

  it('answers 404 NotFound when the segment lacks the uri-parameter-one= prefix or its value', async () => {
    const resource = await createResource();
    const body = bodyWith({ id: resource.id, key: undefined });
    for (const segment of ['plain-value', 'uri-parameter-one=', 'uri-parameter-two=x', 'URI-PARAMETER-ONE=x']) {
      const answer = await post(`/demo/resource/artificially-complex/path/${segment}/two`, body);
      expectError(answer, 404, 'NotFound');
      expect(answer.body.message).toContain('uri-parameter-one=<value>');
    }
  });

  it('takes percent-encoded path parameters as their decoded values', async () => {
    const resource = await createResource();
    const body = bodyWith({ id: resource.id, key: undefined, version: '1' });
    const one = uniqueKey('a b#c');
    const encoded = `/demo/resource/artificially-complex/path/uri-parameter-one=${encodeURIComponent(one)}/${encodeURIComponent('x/y ü')}`;
    expect((await post(encoded, body)).status).toBe(201);
    // `=` written as %3D is the same segment once decoded.
    const again = encoded.replace('uri-parameter-one=', 'uri-parameter-one%3D');
    expect((await post(again, body)).status).toBe(200);
  });

  it('answers 400 InvalidField for a date-time that is not ISO 8601', async () => {
    const resource = await createResource();
    const answer = await post(freshPath(), bodyWith({ id: resource.id, createdAt: '28.02.2015 16:41' }));
    expectError(answer, 400, 'InvalidField');
    expect(answer.body.errors[0]).toMatchObject({ field: 'createdAt', invalidValue: '28.02.2015 16:41' });
  });

  it('answers 400 InvalidField for createdBy with a number', async () => {
    const resource = await createResource();
    const answer = await post(freshPath(), bodyWith({ id: resource.id, createdBy: { firstName: 'John', lastName: 42 } }));
    expectError(answer, 400, 'InvalidField');
    expect(answer.body.errors[0]).toMatchObject({ field: 'createdBy.lastName', invalidValue: 42 });
  });

  it('answers 400 InvalidInput for unknown fields', async () => {
    const resource = await createResource();
    const answer = await post(freshPath(), bodyWith({ id: resource.id, eleventhProperty: 'correctly spelled, so unknown' }));
    expectError(answer, 400, 'InvalidInput');
    expect(answer.body.errors[0]).toMatchObject({ fields: ['eleventhProperty'] });
  });

  it('answers 400 RequiredField naming id when the body has neither id nor key', async () => {
    const answer = await post(freshPath(), bodyWith({ id: undefined, key: undefined }));
    expectError(answer, 400, 'RequiredField');
    expect(answer.body.errors[0]).toMatchObject({ field: 'id' });
  });

  it('answers 400 InvalidInput for queryParameterOne=abc, and accepts typed query parameters', async () => {
    const resource = await createResource();
    const path = freshPath();
    const body = bodyWith({ id: resource.id, key: undefined, version: '1' });
    const bad = await post(`${path}?queryParameterOne=abc`, body);
    expectError(bad, 400, 'InvalidInput');
    expect(bad.body.message).toContain('queryParameterOne');
    expect((await post(`${path}?queryParameterOne=1.5&queryParameterTwo=any`, body)).status).toBe(201);
  });

  it('answers 400 InvalidJsonInput for a body that is not JSON', async () => {
    const answer = await call('POST', freshPath(), { token: await tokenFor(), body: '{not json', headers: { 'content-type': 'application/json' } });
    expectError(answer, 400, 'InvalidJsonInput');
  });

  it('answers 403 insufficient_scope to a view_test-only token, naming manage_test', async () => {
    const resource = await createResource();
    const answer = await post(freshPath(), bodyWith({ id: resource.id, key: undefined }), await tokenFor('view_test:demo'));
    expectError(answer, 403, 'insufficient_scope');
    expect(answer.body.message).toContain('manage_test:demo');
  });
});
