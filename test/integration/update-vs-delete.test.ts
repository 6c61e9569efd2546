import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ResourceNotFoundError } from '../../shared/domain/errors';
import { DynamoDbResourceStore } from '../../shared/store/dynamodb/resource-store';
import { resourceKey } from '../../shared/store/dynamodb/keys';
import { call, draftExample, tokenFor, uniqueKey } from './api-client';
import { localTable } from './test-clients';

/**
 * An update that loses to a delete is 404 ResourceNotFound (an update of a resource
 * deleted while the update ran is an update of a missing resource), never a 409 without `currentVersion`.
 */

describe('an update racing a delete', () => {
  it('a key-changing update whose resource is deleted between its read and its write: 404 ResourceNotFound', async () => {
    const { db, tableName } = localTable();
    const store = new DynamoDbResourceStore(db, tableName);
    const resource = await store.create('demo', { key: uniqueKey('race'), objectTypeProperty: draftExample.objectTypeProperty as never });
    // The store's own read of the resource is followed, on DynamoDB Local, by a delete of it.
    let deleted = false;
    const racing = {
      send: async (command: unknown) => {
        const answer = await db.send(command as never);
        if (!deleted && command instanceof GetCommand && command.input.Key?.sk === resourceKey('demo', resource.id).sk) {
          deleted = true;
          await store.delete('demo', resource.id);
        }
        return answer;
      },
    } as unknown as DynamoDBDocumentClient;

    const update = new DynamoDbResourceStore(racing, tableName).update('demo', resource.id, resource.version, { key: uniqueKey('race') });
    await expect(update).rejects.toBeInstanceOf(ResourceNotFoundError);
    expect(deleted).toBe(true);
    expect((await db.send(new GetCommand({ TableName: tableName, Key: resourceKey('demo', resource.id) }))).Item).toBeUndefined();
  });

  it('over HTTP, under a race: every losing update is 404 ResourceNotFound (or 409 with currentVersion), none recreates the resource', async () => {
    const token = await tokenFor('manage_test:demo');
    for (let round = 0; round < 3; round++) {
      const made = await call('POST', '/demo/resource', { token, json: { key: uniqueKey('race'), ...draftExample } });
      expect(made.status).toBe(201);
      const id = made.body.id as string;
      const updates = Array.from({ length: 8 }, (_, index) =>
        call('POST', `/demo/resource/${id}`, {
          token,
          json: { version: 1, actions: index % 2 ? [{ action: 'setKey', key: uniqueKey('race') }] : [{ action: 'changeSomeProperty', someProperty: `v${index}` }] },
        }),
      );
      const removal = call('DELETE', `/demo/resource/${id}`, { token });
      const answers = await Promise.all([...updates, removal]);
      for (const answer of answers.slice(0, -1)) {
        expect([200, 404, 409]).toContain(answer.status);
        if (answer.status === 404) expect(answer.body.errors[0].code).toBe('ResourceNotFound');
        if (answer.status === 409) expect(answer.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: expect.any(Number) });
      }
      const last = answers.at(-1)!;
      if (last.status === 200) expect((await call('GET', `/demo/resource/${id}`, { token })).status).toBe(404);
      else await call('DELETE', `/demo/resource/${id}`, { token });
    }
  });
});
