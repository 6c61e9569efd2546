import type { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { NoAnswerError, StoreUnavailableError } from '../../../shared/domain/errors';
import { IN_PROGRESS_PATIENCE_MS, sendTransaction } from '../../../shared/store/dynamodb/operations';

/**
 * After a request timeout the SDK resends a transaction at once, and while the first attempt is
 * still running DynamoDB answers TransactionInProgressException; the SDK's own retries of it end
 * within seconds, so the transaction is sent once more, with the same token, 5 s after the first.
 */
const inProgress = () => {
  throw Object.assign(new Error('Transaction is in progress'), { name: 'TransactionInProgressException', $fault: 'client' });
};
const input = { TransactItems: [{ Delete: { TableName: 't', Key: { pk: 'p', sk: 's' } } }] };

/** A table whose answers are `answers` in turn, on a clock that only waits moves. */
function fakeTable(answers: (() => unknown)[]) {
  let time = 1_000_000;
  const sent: { at: number; token: string | undefined }[] = [];
  const db = {
    send: async (command: TransactWriteCommand) => {
      sent.push({ at: time, token: command.input.ClientRequestToken });
      const answer = answers[Math.min(sent.length, answers.length) - 1]!;
      return answer();
    },
  };
  const clock = { now: () => time, wait: async (ms: number) => void (time += ms) };
  return { db: db as unknown as Parameters<typeof sendTransaction>[0], clock, sent, start: time };
}

describe('sendTransaction', () => {
  it('sends once more, with the same token, 5 s after the first send while DynamoDB reports it in progress', async () => {
    const table = fakeTable([inProgress, () => ({})]);
    await sendTransaction(table.db, input, table.clock);
    expect(table.sent).toHaveLength(2);
    expect(table.sent[0]!.token).toMatch(/^[0-9a-f-]{36}$/);
    expect(table.sent[1]!.token).toBe(table.sent[0]!.token);
    expect(table.sent[1]!.at - table.start).toBe(IN_PROGRESS_PATIENCE_MS);
  });

  it('keeps a token it is given', async () => {
    const table = fakeTable([inProgress, () => ({})]);
    await sendTransaction(table.db, { ...input, ClientRequestToken: 'given-token' }, table.clock);
    expect(table.sent.map((send) => send.token)).toEqual(['given-token', 'given-token']);
  });

  it('still in progress then: no answer, the outcome unknown (503)', async () => {
    const table = fakeTable([inProgress]);
    await expect(sendTransaction(table.db, input, table.clock)).rejects.toBeInstanceOf(NoAnswerError);
    expect(table.sent).toHaveLength(2);
  });

  it('any other error is thrown as it came, after one send; a failed resend too', async () => {
    const cancelled = Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException' });
    const failing = () => Promise.reject(cancelled);
    const once = fakeTable([failing]);
    await expect(sendTransaction(once.db, input, once.clock)).rejects.toBe(cancelled);
    expect(once.sent).toHaveLength(1);
    const twice = fakeTable([inProgress, failing]);
    await expect(sendTransaction(twice.db, input, twice.clock)).rejects.toBe(cancelled);
    expect(twice.sent).toHaveLength(2);
  });

  it('a cancellation for capacity is the store unavailable (503); one for a condition is for the caller to read', async () => {
    const cancelled = (...codes: string[]) => () =>
      Promise.reject(Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', CancellationReasons: codes.map((Code) => ({ Code })) }));
    for (const code of ['ThrottlingError', 'ProvisionedThroughputExceeded']) {
      const table = fakeTable([cancelled('None', code)]);
      await expect(sendTransaction(table.db, input, table.clock), code).rejects.toBeInstanceOf(StoreUnavailableError);
    }
    const condition = fakeTable([cancelled('ConditionalCheckFailed', 'None')]);
    await expect(sendTransaction(condition.db, input, condition.clock)).rejects.toMatchObject({ name: 'TransactionCanceledException' });
  });
});
