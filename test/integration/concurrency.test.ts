import { describe, expect, it } from 'vitest';
import { call, draftExample, tokenFor, uniqueKey } from './api-client';

describe('concurrency is settled by DynamoDB conditions and transactions', () => {
  it('20 concurrent creates of one key make exactly one resource', async () => {
    const token = await tokenFor();
    const key = uniqueKey('race');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/demo/resource', { token, json: { key, ...draftExample } })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    // Every other POST found the key taken and updated that resource in place (or lost a race and said so).
    expect(statuses.every((status) => status === 201 || status === 200 || status === 409)).toBe(true);
    const ids = new Set(answers.filter((answer) => answer.status < 300).map((answer) => answer.body.id));
    expect(ids.size).toBe(1);
    const stored = await call('GET', `/demo/resource/key=${key}`, { token });
    expect(stored.body.id).toBe([...ids][0]);
    expect(stored.body.version).toBe(statuses.filter((status) => status < 300).length);
  });

  it('concurrent updates at one version: exactly one wins, the others get 409 with currentVersion', async () => {
    const token = await tokenFor();
    const { body: resource } = await call('POST', '/demo/resource', { token, json: draftExample });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call('POST', `/demo/resource/${resource.id}`, {
          token,
          json: { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: `writer-${index}` }] },
        }),
      ),
    );
    const winners = answers.filter((answer) => answer.status === 200);
    const losers = answers.filter((answer) => answer.status === 409);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(19);
    for (const loser of losers) expect(loser.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: 2 });
    const stored = await call('GET', `/demo/resource/${resource.id}`, { token });
    expect(stored.body).toMatchObject({ version: 2, someProperty: winners[0]!.body.someProperty });
  });
});
