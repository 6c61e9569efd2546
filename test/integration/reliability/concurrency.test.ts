import { beforeAll, describe, expect, it } from 'vitest';
import { call, draftExample, tokenFor, uniqueKey, type ApiAnswer } from '../api-client';

/**
 * Reliability under concurrency, over HTTP against the local stack (DynamoDB Local): every race
 * is settled by DynamoDB conditions and transactions, never by luck. Each test names the
 * invariant it checks; the resources live in project `demo`, each test on its own keys.
 */
let token: string;
beforeAll(async () => {
  token = await tokenFor();
});

const create = async (key?: string) => {
  const answer = await call('POST', '/demo/resource', { token, json: { ...(key ? { key } : {}), ...draftExample } });
  expect(answer.status).toBe(201);
  return answer.body as { id: string; key?: string; version: number };
};
const update = (id: string, version: number, actions: unknown[]) =>
  call('POST', `/demo/resource/${id}`, { token, json: { version, actions } });
const read = (id: string) => call('GET', `/demo/resource/${id}`, { token });
const readByKey = (key: string) => call('GET', `/demo/resource/key=${key}`, { token });
/** How many resources of the project hold `key` (a query, not the key sentinel). */
const holdersOf = async (key: string) => {
  const answer = await call('GET', `/demo/resource?where=${encodeURIComponent(`key = "${key}"`)}&limit=500`, { token });
  expect(answer.status).toBe(200);
  return answer.body.results as { id: string; version: number }[];
};

const statusesOf = (answers: ApiAnswer[]) => answers.map((answer) => answer.status);
const count = (answers: ApiAnswer[], status: number) => answers.filter((answer) => answer.status === status).length;

describe('concurrent updates: optimistic concurrency holds', () => {
  it('40 concurrent updates at one version: exactly one 200, 39 × 409 ConcurrentModification with currentVersion', async () => {
    const resource = await create();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) => update(resource.id, 1, [{ action: 'changeSomeProperty', someProperty: `writer-${index}` }])),
    );
    expect(count(answers, 200)).toBe(1);
    expect(count(answers, 409)).toBe(39);
    for (const loser of answers.filter((answer) => answer.status === 409)) {
      expect(loser.body).toMatchObject({ statusCode: 409, errors: [{ code: 'ConcurrentModification', currentVersion: 2 }] });
    }
    const winner = answers.find((answer) => answer.status === 200)!;
    const stored = await read(resource.id);
    expect(stored.body).toMatchObject({ version: 2, someProperty: winner.body.someProperty });
  });

  it('5 rounds of 10 concurrent updates (UpdateItem and setKey transactions mixed): one win per round, final version = 1 + wins', async () => {
    const resource = await create(uniqueKey('rounds'));
    let wins = 0;
    for (let round = 0; round < 5; round++) {
      const { body: current } = await read(resource.id);
      const version = current.version as number;
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, writer) =>
          update(
            resource.id,
            version,
            // Every third writer moves the key (a transaction with the key sentinels); the others set a property.
            writer % 3 === 0
              ? [{ action: 'setKey', key: uniqueKey(`r${round}w${writer}`) }]
              : [{ action: 'changeSomeProperty', someProperty: `round-${round}-writer-${writer}` }],
          ),
        ),
      );
      const won = count(answers, 200);
      expect(won, `round ${round}: ${statusesOf(answers).join(',')}`).toBe(1);
      expect(count(answers, 409), `round ${round}: ${statusesOf(answers).join(',')}`).toBe(9);
      for (const loser of answers.filter((answer) => answer.status === 409)) {
        expect(loser.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: version + 1 });
      }
      wins += won;
    }
    const stored = await read(resource.id);
    expect(stored.body.version).toBe(1 + wins);
    expect(wins).toBe(5);
    // The key the resource holds now resolves to it, and no other resource holds it.
    expect((await readByKey(stored.body.key)).body.id).toBe(resource.id);
    expect(await holdersOf(stored.body.key)).toHaveLength(1);
  });
});

describe('concurrent creates of one key make one resource', () => {
  const methods = { POST: ['POST'], PUT: ['PUT'], 'POST and PUT mixed': ['POST', 'PUT'] } as const;
  for (const [name, verbs] of Object.entries(methods)) {
    it(`20 concurrent creates of one key (${name}): one 201, the rest update it in place, one resource holds the key`, async () => {
      const key = uniqueKey('create-race');
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          call(verbs[index % verbs.length]!, '/demo/resource', { token, json: { key, ...draftExample } }),
        ),
      );
      const statuses = statusesOf(answers);
      expect(count(answers, 201), statuses.join(',')).toBe(1);
      // The others found the key taken and overwrote its holder (200), or lost every retry and said so (409).
      expect(statuses.every((status) => status === 201 || status === 200 || status === 409), statuses.join(',')).toBe(true);
      const ids = new Set(answers.filter((answer) => answer.status < 300).map((answer) => answer.body.id));
      expect(ids.size).toBe(1);
      const holders = await holdersOf(key);
      expect(holders).toHaveLength(1);
      expect(holders[0]!.id).toBe([...ids][0]);
      // Every success raised the version by exactly one.
      expect(holders[0]!.version).toBe(statuses.filter((status) => status < 300).length);
      // And a later version never carries an earlier time: "modified since" reads miss no change.
      const byVersion = answers.filter((answer) => answer.status < 300).map((answer) => answer.body).sort((a, b) => a.version - b.version);
      for (let index = 1; index < byVersion.length; index++) {
        expect(byVersion[index].lastModifiedAt > byVersion[index - 1].lastModifiedAt, JSON.stringify(byVersion.map((r) => [r.version, r.lastModifiedAt]))).toBe(true);
      }
    });
  }
});

describe('concurrent delete and update: no resurrection', () => {
  const PAIRS = 8;

  /** Checks one settled race; `expectedVersion` is the DELETE's ?version=, if any. */
  async function checkSettled(
    resource: { id: string; key?: string },
    deleted: ApiAnswer,
    updated: ApiAnswer,
    movedTo: string | undefined,
    expectedVersion?: number,
  ) {
    const outcome = `delete ${deleted.status} ${JSON.stringify(deleted.body?.errors ?? '')}, update ${updated.status} ${JSON.stringify(updated.body?.errors ?? '')}`;
    expect([200, 404, 409], outcome).toContain(updated.status);
    if (deleted.status === 200) {
      // The delete succeeded: nothing may exist afterwards, whatever the update answered.
      expect((await read(resource.id)).status, outcome).toBe(404);
      if (updated.status === 200) {
        // The update won first: the delete removed the updated resource.
        expect(deleted.body.version, outcome).toBe(2);
      } else {
        expect(deleted.body.version, outcome).toBe(1);
      }
      // Every key the resource held, before or after the update, is free again.
      for (const key of [resource.key, movedTo].filter((key): key is string => key !== undefined)) {
        expect((await readByKey(key)).status, `${outcome}, key ${key}`).toBe(404);
        const again = await call('POST', '/demo/resource', { token, json: { key, ...draftExample } });
        expect(again.status, `${outcome}, re-create ${key}: ${JSON.stringify(again.body)}`).toBe(201);
        expect(again.body.id).not.toBe(resource.id);
      }
    } else {
      // Only a versioned delete may lose, and only to the update that won before it.
      expect(expectedVersion, outcome).toBeDefined();
      expect(deleted.status, outcome).toBe(409);
      expect(updated.status, outcome).toBe(200);
      expect((await read(resource.id)).body.version, outcome).toBe(2);
    }
  }

  it(`keyless resources: DELETE races changeSomeProperty (${PAIRS} pairs)`, async () => {
    const resources = await Promise.all(Array.from({ length: PAIRS }, () => create()));
    await Promise.all(
      resources.map(async (resource) => {
        const [deleted, updated] = await Promise.all([
          call('DELETE', `/demo/resource/${resource.id}`, { token }),
          update(resource.id, 1, [{ action: 'changeSomeProperty', someProperty: 'late' }]),
        ]);
        await checkSettled(resource, deleted, updated, undefined);
      }),
    );
  });

  it(`keyed resources: DELETE races setKey to a new key (${PAIRS} pairs); both keys are free afterwards`, async () => {
    const resources = await Promise.all(Array.from({ length: PAIRS }, () => create(uniqueKey('del-race'))));
    await Promise.all(
      resources.map(async (resource) => {
        const movedTo = uniqueKey('moved');
        const [deleted, updated] = await Promise.all([
          call('DELETE', `/demo/resource/${resource.id}`, { token }),
          update(resource.id, 1, [{ action: 'setKey', key: movedTo }]),
        ]);
        await checkSettled(resource, deleted, updated, movedTo);
      }),
    );
  });

  it(`keyed resources: DELETE ?version=1 races an update at version 1 (${PAIRS} pairs): exactly one of them wins`, async () => {
    const resources = await Promise.all(Array.from({ length: PAIRS }, () => create(uniqueKey('del-v-race'))));
    await Promise.all(
      resources.map(async (resource) => {
        const [deleted, updated] = await Promise.all([
          call('DELETE', `/demo/resource/${resource.id}?version=1`, { token }),
          update(resource.id, 1, [{ action: 'changeSomeProperty', someProperty: 'contender' }]),
        ]);
        expect([deleted.status, updated.status].filter((status) => status === 200)).toHaveLength(1);
        await checkSettled(resource, deleted, updated, undefined, 1);
      }),
    );
  });

  it(`keyed resources: DELETE races a POST of the same key (${PAIRS} pairs): the deleted id never comes back`, async () => {
    const resources = await Promise.all(Array.from({ length: PAIRS }, () => create(uniqueKey('del-post-race'))));
    await Promise.all(
      resources.map(async (resource) => {
        const [deleted, posted] = await Promise.all([
          call('DELETE', `/demo/resource/${resource.id}`, { token }),
          call('POST', '/demo/resource', { token, json: { key: resource.key, ...draftExample } }),
        ]);
        const outcome = `delete ${deleted.status}, post ${posted.status} ${JSON.stringify(posted.body)}`;
        expect(deleted.status, outcome).toBe(200);
        expect((await read(resource.id)).status, outcome).toBe(404);
        const holders = await holdersOf(resource.key!);
        if (posted.status === 200) {
          // The POST updated the old resource before the delete removed it: the key is free.
          expect(posted.body.id, outcome).toBe(resource.id);
          expect(deleted.body.version, outcome).toBe(2);
          expect(holders, outcome).toHaveLength(0);
        } else {
          // The POST came after the delete: a new resource, at version 1, holds the key.
          expect(posted.status, outcome).toBe(201);
          expect(posted.body.id, outcome).not.toBe(resource.id);
          expect(holders.map((holder) => [holder.id, holder.version]), outcome).toEqual([[posted.body.id, 1]]);
          expect((await readByKey(resource.key!)).body.id, outcome).toBe(posted.body.id);
        }
      }),
    );
  });
});

describe('concurrent setKey to one key: exactly one resource holds it', () => {
  it('two resources, 5 rounds: one setKey wins with 200, the other gets DuplicateField, nothing else moves', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([create(uniqueKey('own-a')), create()]);
      const key = uniqueKey('contested');
      const answers = await Promise.all([a!, b!].map((resource) => update(resource.id, 1, [{ action: 'setKey', key }])));
      const outcome = statusesOf(answers).join(',');
      expect(count(answers, 200), outcome).toBe(1);
      const loserIndex = answers.findIndex((answer) => answer.status !== 200);
      const winner = [a!, b!][1 - loserIndex]!;
      const loser = [a!, b!][loserIndex]!;
      expect(answers[loserIndex]!.status, outcome).toBe(400);
      expect(answers[loserIndex]!.body.errors[0], outcome).toMatchObject({ code: 'DuplicateField', field: 'key', duplicateValue: key });

      expect((await readByKey(key)).body.id).toBe(winner.id);
      expect(await holdersOf(key)).toHaveLength(1);
      // The loser is untouched: its version, and its own key (when it had one) still resolves to it.
      const loserNow = await read(loser.id);
      expect(loserNow.body).toMatchObject({ version: 1 });
      expect(loserNow.body.key).toBe(loser.key);
      if (loser.key) expect((await readByKey(loser.key)).body.id).toBe(loser.id);
      // The winner's former key, if any, was freed in the same transaction.
      if (winner.key) expect((await readByKey(winner.key)).status).toBe(404);
    }
  });

  it('ten resources race for one key: exactly one holds it', async () => {
    const resources = await Promise.all(Array.from({ length: 10 }, (_, index) => create(index % 2 ? uniqueKey('ten') : undefined)));
    const key = uniqueKey('ten-contested');
    const answers = await Promise.all(resources.map((resource) => update(resource.id, 1, [{ action: 'setKey', key }])));
    const outcome = statusesOf(answers).join(',');
    expect(count(answers, 200), outcome).toBe(1);
    // Losers: the key is taken (400 DuplicateField), or every retry lost (409); never a second holder.
    expect(statusesOf(answers).every((status) => status === 200 || status === 400 || status === 409), outcome).toBe(true);
    const winner = resources[answers.findIndex((answer) => answer.status === 200)]!;
    expect((await readByKey(key)).body.id).toBe(winner.id);
    expect(await holdersOf(key)).toHaveLength(1);
  });

  it('setKey races a POST creating the same key: one resource holds it (5 rounds)', async () => {
    for (let round = 0; round < 5; round++) {
      const mover = await create();
      const key = uniqueKey('set-vs-post');
      const [moved, posted] = await Promise.all([
        update(mover.id, 1, [{ action: 'setKey', key }]),
        call('POST', '/demo/resource', { token, json: { key, ...draftExample } }),
      ]);
      const outcome = `setKey ${moved.status}, post ${posted.status}`;
      const holders = await holdersOf(key);
      expect(holders, outcome).toHaveLength(1);
      if (moved.status === 200) {
        // setKey first; the POST then found the key and updated the mover in place (or lost its retries).
        expect([200, 409], outcome).toContain(posted.status);
        expect(holders[0]!.id, outcome).toBe(mover.id);
      } else {
        expect(posted.status, outcome).toBe(201);
        expect(moved.status, outcome).toBe(400);
        expect(holders[0]!.id, outcome).toBe(posted.body.id);
      }
    }
  });
});
