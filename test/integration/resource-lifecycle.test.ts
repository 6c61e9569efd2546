import { describe, expect, it } from 'vitest';
import { call, draftExample, tokenFor, uniqueKey } from './api-client';

const create = async (draft: object) => call('POST', '/demo/resource', { token: await tokenFor(), json: draft });

describe('resource lifecycle (POST /{projectKey}/resource, GET, POST and DELETE /{projectKey}/resource/{id})', () => {
  it('creates, reads by id and key, updates, and deletes', async () => {
    const token = await tokenFor();
    const key = uniqueKey();
    const made = await create({ key, ...draftExample });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ key, version: 1, objectTypeProperty: draftExample.objectTypeProperty });
    expect(made.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.body.createdAt).toBe(made.body.lastModifiedAt);

    const byId = await call('GET', `/demo/resource/${made.body.id}`, { token });
    expect(byId).toMatchObject({ status: 200, body: made.body });
    const byKey = await call('GET', `/demo/resource/key=${key}`, { token });
    expect(byKey).toMatchObject({ status: 200, body: made.body });

    const updated = await call('POST', `/demo/resource/${made.body.id}`, {
      token,
      json: { version: 1, actions: [{ action: 'doSomeThing' }, { action: 'changeSomeProperty', someProperty: 'any string' }] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: made.body.id, version: 2, someProperty: 'any string' });

    const deleted = await call('DELETE', `/demo/resource/${made.body.id}`, { token });
    expect(deleted).toMatchObject({ status: 200, body: { id: made.body.id, version: 2 } });
    expect((await call('GET', `/demo/resource/${made.body.id}`, { token })).status).toBe(404);
    expect((await call('GET', `/demo/resource/key=${key}`, { token })).status).toBe(404);

    // The key is free again once its resource is gone.
    expect((await create({ key, ...draftExample })).status).toBe(201);
  });

  it('answers 409 ConcurrentModification with currentVersion at a stale version, applying nothing', async () => {
    const token = await tokenFor();
    const { body: resource } = await create(draftExample);
    await call('POST', `/demo/resource/${resource.id}`, { token, json: { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'first' }] } });

    const stale = await call('POST', `/demo/resource/${resource.id}`, {
      token,
      json: { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'second' }] },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      statusCode: 409,
      errors: [{ code: 'ConcurrentModification', currentVersion: 2 }],
    });
    const current = await call('GET', `/demo/resource/${resource.id}`, { token });
    expect(current.body).toMatchObject({ version: 2, someProperty: 'first' });
  });

  it('keeps the version when the actions change nothing', async () => {
    const token = await tokenFor();
    const { body: resource } = await create(draftExample);
    const noop = await call('POST', `/demo/resource/${resource.id}`, { token, json: { version: 1, actions: [{ action: 'doSomeThing' }] } });
    expect(noop).toMatchObject({ status: 200, body: { version: 1 } });
    await call('POST', `/demo/resource/${resource.id}`, { token, json: { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'same' }] } });
    const again = await call('POST', `/demo/resource/${resource.id}`, { token, json: { version: 2, actions: [{ action: 'changeSomeProperty', someProperty: 'same' }] } });
    expect(again).toMatchObject({ status: 200, body: { version: 2, someProperty: 'same' } });
  });

  it('applies actions in order: the last change of a field wins, as one version step', async () => {
    const token = await tokenFor();
    const { body: resource } = await create(draftExample);
    const answer = await call('POST', `/demo/resource/${resource.id}`, {
      token,
      json: {
        version: 1,
        actions: [
          { action: 'changeSomeProperty', someProperty: 'a' },
          { action: 'changeSomeProperty', someProperty: 'b' },
        ],
      },
    });
    expect(answer.body).toMatchObject({ version: 2, someProperty: 'b' });
  });

  it('sets, moves and removes keys with setKey, keeping keys unique', async () => {
    const token = await tokenFor();
    const [first, second] = [uniqueKey(), uniqueKey()];
    const { body: a } = await create({ key: first, ...draftExample });
    const { body: b } = await create({ key: second, ...draftExample });

    const taken = await call('POST', `/demo/resource/${b.id}`, { token, json: { version: 1, actions: [{ action: 'setKey', key: first }] } });
    expect(taken.status).toBe(400);
    expect(taken.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'key', duplicateValue: first });

    const moved = uniqueKey();
    const renamed = await call('POST', `/demo/resource/${a.id}`, { token, json: { version: 1, actions: [{ action: 'setKey', key: moved }] } });
    expect(renamed.body).toMatchObject({ key: moved, version: 2 });
    expect((await call('GET', `/demo/resource/key=${first}`, { token })).status).toBe(404);
    expect((await call('GET', `/demo/resource/key=${moved}`, { token })).body.id).toBe(a.id);

    // The freed key can be taken by another resource.
    const takesFreed = await call('POST', `/demo/resource/${b.id}`, { token, json: { version: 1, actions: [{ action: 'setKey', key: first }] } });
    expect(takesFreed.body).toMatchObject({ key: first, version: 2 });

    const removed = await call('POST', `/demo/resource/${a.id}`, { token, json: { version: 2, actions: [{ action: 'setKey' }] } });
    expect(removed.status).toBe(200);
    expect(removed.body.key).toBeUndefined();
    expect((await call('GET', `/demo/resource/key=${moved}`, { token })).status).toBe(404);
  });

  it('applies a setKey to the key the resource already holds beside a real change, and keeps the key', async () => {
    const token = await tokenFor();
    const key = uniqueKey();
    const { body: resource } = await create({ key, ...draftExample });
    const actions = [
      { action: 'setKey', key },
      { action: 'changeSomeProperty', someProperty: 'changed beside its own key' },
    ];
    const answer = await call('POST', `/demo/resource/${resource.id}`, { token, json: { version: 1, actions } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ key, version: 2, someProperty: 'changed beside its own key' });
    expect((await call('GET', `/demo/resource/key=${key}`, { token })).body).toMatchObject({ id: resource.id, version: 2 });
    // The key is still held: another resource cannot take it.
    const { body: other } = await create({ ...draftExample });
    const taken = await call('POST', `/demo/resource/${other.id}`, { token, json: { version: 1, actions: [{ action: 'setKey', key }] } });
    expect(taken.body.errors[0]).toMatchObject({ code: 'DuplicateField', duplicateValue: key });
  });

  it('answers HEAD wherever GET reads a resource (RFC 9110 §9.1): the same status, no body', async () => {
    const token = await tokenFor('view_test:demo');
    const key = uniqueKey();
    const { body: resource } = await create({ key, ...draftExample });
    for (const path of [`/demo/resource/${resource.id}`, `/demo/resource/key=${key}`]) {
      const answer = await call('HEAD', path, { token });
      expect(answer.status, path).toBe(200);
      expect(answer.body).toBeUndefined();
      expect(answer.headers.get('x-correlation-id')).toBeTruthy();
    }
    const missing = await call('HEAD', `/demo/resource/key=${uniqueKey()}`, { token });
    expect(missing.status).toBe(404);
    expect(missing.body).toBeUndefined();
    expect((await call('HEAD', `/demo/resource/${resource.id}`)).status).toBe(401);
  });

  it('answers 405 with the path\'s methods when a literal path is asked with another method (not a resource named so)', async () => {
    const token = await tokenFor();
    const cases: [string, string, string][] = [
      ['GET', '/demo/resource/images', 'POST'],
      ['DELETE', '/demo/resource/namespace-action', 'POST, GET'],
      ['POST', '/demo/resource/searchApiPattern', 'GET'],
      ['HEAD', '/demo/resource/namespace-action-with-example', 'GET'],
      // No PUT route fits: the $default route answers, naming the same path's methods (not those of `{id}` too).
      ['PUT', '/demo/resource/images', 'POST'],
    ];
    for (const [method, path, allowed] of cases) {
      const answer = await call(method, path, { token, ...(method === 'POST' ? { json: { version: 1, actions: [] } } : {}) });
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.get('allow'), `${method} ${path}`).toBe(allowed);
      if (method !== 'HEAD') expect(answer.body.errors[0].code).toBe('MethodNotAllowed');
    }
    // Whatever the token's scopes, as the $default route answers (a view-only token on a delete route: not 403).
    expect((await call('DELETE', '/demo/resource/images', { token: await tokenFor('view_test:demo') })).status).toBe(405);
  });

  it('tells a delete or an update by key that they take the id (only reads take key=<key>)', async () => {
    const token = await tokenFor();
    const key = uniqueKey();
    await create({ key, ...draftExample });
    const deleted = await call('DELETE', `/demo/resource/key=${key}?version=1`, { token });
    const updated = await call('POST', `/demo/resource/key=${key}`, { token, json: { version: 1, actions: [{ action: 'doSomeThing' }] } });
    for (const answer of [deleted, updated]) {
      expect(answer.status).toBe(404);
      expect(answer.body.errors[0]).toEqual({
        code: 'ResourceNotFound',
        message: `Updates and deletes name the resource by its id, not by 'key=${key}': GET /{projectKey}/resource/key=${key} answers its id.`,
      });
    }
    expect((await call('GET', `/demo/resource/key=${key}`, { token })).body.version).toBe(1);
  });

  it('deletes only at the expected version when one is given', async () => {
    const token = await tokenFor();
    const { body: resource } = await create({ key: uniqueKey(), ...draftExample });
    const stale = await call('DELETE', `/demo/resource/${resource.id}?version=7`, { token });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: 1 });
    expect((await call('DELETE', `/demo/resource/${resource.id}?version=1`, { token })).status).toBe(200);
    expect((await call('DELETE', `/demo/resource/${resource.id}`, { token })).status).toBe(404);
  });

  it('answers 404 ResourceNotFound for unknown ids and keys', async () => {
    const token = await tokenFor();
    for (const path of ['/demo/resource/3f1b7a3e-0000-4000-8000-000000000000', '/demo/resource/key=no-such-key', '/demo/resource/key=']) {
      const answer = await call('GET', path, { token });
      expect(answer.status).toBe(404);
      expect(answer.body.errors[0].code).toBe('ResourceNotFound');
    }
    const update = await call('POST', '/demo/resource/unknown-id', { token, json: { version: 1, actions: [] } });
    expect(update.status).toBe(404);
  });
});

describe('overwrite by key (POST, PATCH and PUT /{projectKey}/resource)', () => {
  const replacement = { ...draftExample.objectTypeProperty, arrayOfStringExample: ['replaced'] };

  it('POST with an existing key updates that resource in place (200, version + 1)', async () => {
    const key = uniqueKey();
    const first = await create({ key, ...draftExample });
    const second = await create({ key, objectTypeProperty: replacement });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: first.body.id, version: 2, objectTypeProperty: replacement });
  });

  it('PUT creates (201) or overwrites (200), honouring an optional version', async () => {
    const token = await tokenFor();
    const key = uniqueKey();
    const made = await call('PUT', '/demo/resource', { token, json: { key, ...draftExample } });
    expect(made.status).toBe(201);
    const stale = await call('PUT', '/demo/resource', { token, json: { key, version: 5, objectTypeProperty: replacement } });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].currentVersion).toBe(1);
    const overwritten = await call('PUT', '/demo/resource', { token, json: { key, version: 1, objectTypeProperty: replacement } });
    expect(overwritten).toMatchObject({ status: 200, body: { id: made.body.id, version: 2, objectTypeProperty: replacement } });
    expect((await call('PUT', '/demo/resource', { token, json: draftExample })).status).toBe(201);
  });

  it('PATCH overwrites the resource named by key; 404 without one; 400 without a key', async () => {
    const token = await tokenFor();
    const key = uniqueKey();
    const made = await create({ key, ...draftExample });
    const patched = await call('PATCH', '/demo/resource', { token, json: { key, objectTypeProperty: replacement } });
    expect(patched).toMatchObject({ status: 200, body: { id: made.body.id, version: 2, objectTypeProperty: replacement } });
    const stale = await call('PATCH', '/demo/resource', { token, json: { key, version: 1, objectTypeProperty: replacement } });
    expect(stale.status).toBe(409);
    expect((await call('PATCH', '/demo/resource', { token, json: { key: uniqueKey(), ...draftExample } })).status).toBe(404);
    const keyless = await call('PATCH', '/demo/resource', { token, json: draftExample });
    expect(keyless.status).toBe(400);
    expect(keyless.body.errors[0]).toMatchObject({ code: 'RequiredField', field: 'key' });
  });
});

describe('bad input answers 4xx in the commercetools error shape', () => {
  const expectErrorShape = (body: any, statusCode: number, code: string) => {
    expect(body).toMatchObject({ statusCode, message: expect.any(String) });
    expect(body.errors[0]).toMatchObject({ code, message: expect.any(String) });
  };

  it('malformed JSON is 400 InvalidJsonInput with a detailed message', async () => {
    const answer = await call('POST', '/demo/resource', { token: await tokenFor(), body: '{"objectTypeProperty": ', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(400);
    expectErrorShape(answer.body, 400, 'InvalidJsonInput');
    expect(answer.body.errors[0].detailedErrorMessage).toEqual(expect.any(String));
  });

  it('an empty body is 400 InvalidJsonInput', async () => {
    const answer = await call('POST', '/demo/resource', { token: await tokenFor(), headers: { 'content-type': 'application/json' } });
    expectErrorShape(answer.body, 400, 'InvalidJsonInput');
  });

  it('a lone surrogate in a string or a property name is 400 InvalidJsonInput, and nothing is stored; an emoji is text', async () => {
    const token = await tokenFor();
    const key = uniqueKey();
    const post = (body: string) => call('POST', '/demo/resource', { token, body, headers: { 'content-type': 'application/json' } });
    // JSON escapes, as a client sends them: valid JSON, but the strings they make are no UTF-8 text.
    const inString = await post(`{"key":"${key}","objectTypeProperty":{"arrayOfStringExample":["dog","a\\ud800b"]}}`);
    expect(inString.status).toBe(400);
    expectErrorShape(inString.body, 400, 'InvalidJsonInput');
    expect(inString.body.errors[0].detailedErrorMessage).toBe(
      'The body contains a lone surrogate (\\ud800) at objectTypeProperty.arrayOfStringExample[1]: not valid UTF-8 text.',
    );
    const inName = await post(`{"key":"${key}","objectTypeProperty":{"arrayOfObjectType":[{"\\udc00":1}]}}`);
    expect(inName.status).toBe(400);
    expect(inName.body.errors[0]).toMatchObject({
      code: 'InvalidJsonInput',
      detailedErrorMessage: 'The body contains a lone surrogate (\\udc00) in a property name at objectTypeProperty.arrayOfObjectType[0]: not valid UTF-8 text.',
    });
    expect((await call('GET', `/demo/resource/key=${key}`, { token })).status).toBe(404);

    const emoji = await post(`{"key":"${key}","objectTypeProperty":{"arrayOfStringExample":["😀","\\ud83d\\ude00"]}}`);
    expect(emoji.status).toBe(201);
    expect(emoji.body.objectTypeProperty.arrayOfStringExample).toEqual(['😀', '😀']);
    const read = await call('GET', `/demo/resource/key=${key}`, { token });
    expect(read.body.objectTypeProperty.arrayOfStringExample).toEqual(['😀', '😀']);
  });

  it('another content type is 415', async () => {
    const answer = await call('POST', '/demo/resource', { token: await tokenFor(), body: 'a=b', headers: { 'content-type': 'text/plain' } });
    expect(answer.status).toBe(415);
    expectErrorShape(answer.body, 415, 'UnsupportedMediaType');
  });

  it('takes JSON whatever the case of its media type (RFC 9110: media types are case-insensitive)', async () => {
    const body = JSON.stringify(draftExample);
    const answer = await call('POST', '/demo/resource', { token: await tokenFor(), body, headers: { 'content-type': 'Application/JSON; charset=UTF-8' } });
    expect(answer.status).toBe(201);
    expect(answer.body.objectTypeProperty).toEqual(draftExample.objectTypeProperty);
  });

  it('an ill-typed draft names each bad field', async () => {
    const answer = await create({
      objectTypeProperty: {
        arrayOfIntExample: [1.5],
        arrayOfUniqueIntExample: [3, 3],
        arrayOfTwonumbersExample: [1],
        arrayOfObjectType: [{ integerExample: 70000 }],
      },
    });
    expect(answer.status).toBe(400);
    const byField = Object.fromEntries(answer.body.errors.map((error: any) => [error.field, error.code]));
    expect(byField).toEqual({
      'objectTypeProperty.arrayOfIntExample[0]': 'InvalidField',
      'objectTypeProperty.arrayOfUniqueIntExample': 'DuplicateField',
      'objectTypeProperty.arrayOfTwonumbersExample': 'InvalidField',
      'objectTypeProperty.arrayOfObjectType[0].integerExample': 'InvalidField',
    });
  });

  it('a missing objectTypeProperty is RequiredField; unknown fields are InvalidInput', async () => {
    const missing = await create({ key: uniqueKey() });
    expect(missing.body.errors[0]).toMatchObject({ code: 'RequiredField', field: 'objectTypeProperty' });
    const unknown = await create({ ...draftExample, colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ code: 'InvalidInput', message: expect.stringContaining('colour') });
    const nestedUnknown = await create({ objectTypeProperty: { ...draftExample.objectTypeProperty, extra: 1 } });
    expect(nestedUnknown.body.errors[0].message).toContain('objectTypeProperty.extra');
  });

  it('a malformed key is refused', async () => {
    const answer = await create({ key: 'a b', ...draftExample });
    expect(answer.body.errors[0]).toMatchObject({ code: 'InvalidField', field: 'key' });
  });

  it('unknown actions, too many actions and ill-typed versions are 400', async () => {
    const token = await tokenFor();
    const { body: resource } = await create(draftExample);
    const path = `/demo/resource/${resource.id}`;
    const unknown = await call('POST', path, { token, json: { version: 1, actions: [{ action: 'explode' }] } });
    expectErrorShape(unknown.body, 400, 'InvalidInput');
    const tooMany = await call('POST', path, { token, json: { version: 1, actions: Array(501).fill({ action: 'doSomeThing' }) } });
    expect(tooMany.status).toBe(400);
    const badVersion = await call('POST', path, { token, json: { version: 'one', actions: [] } });
    expect(badVersion.body.errors[0]).toMatchObject({ code: 'InvalidField', field: 'version' });
    const badAction = await call('POST', path, { token, json: { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 7 }] } });
    expect(badAction.body.errors[0]).toMatchObject({ code: 'InvalidField', field: 'actions[0].someProperty' });
    // Nothing of a refused request was applied.
    expect((await call('GET', path, { token })).body.version).toBe(1);
  });

  it('a body over the JSON limit is 413; over the gateway limit too', async () => {
    const token = await tokenFor();
    const big = await call('POST', '/demo/resource', { token, body: `{"pad":"${'x'.repeat(300 * 1024)}"}`, headers: { 'content-type': 'application/json' } });
    expect(big.status).toBe(413);
    expectErrorShape(big.body, 413, 'RequestEntityTooLarge');
    const huge = await call('POST', '/demo/resource', { token, body: Buffer.alloc(10 * 1024 * 1024 + 1, 32), headers: { 'content-type': 'application/json' } });
    expect(huge.status).toBe(413);
  });

  it('unknown routes are 404 NotFound, known paths with other methods 405', async () => {
    const notFound = await call('GET', '/demo/nothing/here');
    expectErrorShape(notFound.body, 404, 'NotFound');
    const wrongMethod = await call('PUT', '/oauth/token');
    expect(wrongMethod.status).toBe(405);
    expectErrorShape(wrongMethod.body, 405, 'MethodNotAllowed');
  });

  it('echoes X-Correlation-ID, or creates one, on every answer', async () => {
    const echoed = await call('GET', '/demo/resource/key=whatever', { token: await tokenFor(), headers: { 'x-correlation-id': 'my-trace-42' } });
    expect(echoed.headers.get('x-correlation-id')).toBe('my-trace-42');
    const created = await call('GET', '/nowhere');
    expect(created.headers.get('x-correlation-id')).toMatch(/^projects-[0-9a-f-]{36}$/);
    const refused = await call('GET', '/demo/resource/x', { headers: { 'x-correlation-id': 'unauth-1' } });
    expect(refused.headers.get('x-correlation-id')).toBe('unauth-1');
  });
});
