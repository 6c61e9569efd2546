import { DatabaseError } from 'pg';
import { describe, expect, it } from 'vitest';
import { NoAnswerError } from '../../../shared/domain/errors';
import { answeredBy, isUnanswered } from '../../../shared/store/postgres/engine-errors';

const databaseError = (code: string) => Object.assign(new DatabaseError('refused', 0, 'error'), { code });
const networkError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('which failures of the search engine are 503 (engine-errors.ts)', () => {
  it('a connection refused, reset or timed out, or the server starting, resuming, shutting down or full', () => {
    for (const error of [networkError('ECONNREFUSED'), networkError('ETIMEDOUT'), new Error('timeout exceeded when trying to connect'), new Error('Connection terminated unexpectedly'), new Error('Query read timeout')]) {
      expect(isUnanswered(error), error.message).toBe(true);
    }
    for (const code of ['57P03', '57P01', '57P05', '57014', '53300', '08006']) expect(isUnanswered(databaseError(code)), code).toBe(true);
  });

  it('a sign-in refused or throttled (class 28: Aurora refuses IAM sign-ins past its rate), a write reaching an instance a failover demoted', () => {
    for (const code of ['28000', '28P01', '25006']) expect(isUnanswered(databaseError(code)), code).toBe(true);
  });

  it('a connection aborted, or every address of the engine refused (Node reports those together)', () => {
    expect(isUnanswered(networkError('ECONNABORTED'))).toBe(true);
    expect(isUnanswered(new AggregateError([networkError('ECONNREFUSED'), networkError('ECONNREFUSED')], 'connect failed'))).toBe(true);
    expect(isUnanswered(new AggregateError([new TypeError('not a connection')], 'failed'))).toBe(false);
  });

  it('not a statement the engine refused, nor a bug of ours: those stay errors (500)', () => {
    expect(isUnanswered(databaseError('42601'))).toBe(false);
    expect(isUnanswered(databaseError('22P02'))).toBe(false);
    // Another transaction-state error than a demoted instance's refusal of writes is ours.
    expect(isUnanswered(databaseError('25P02'))).toBe(false);
    expect(isUnanswered(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  });

  it('answeredBy turns the first kind into NoAnswerError and lets the rest through', async () => {
    await expect(answeredBy(() => Promise.reject(networkError('ECONNREFUSED')))).rejects.toBeInstanceOf(NoAnswerError);
    const refused = databaseError('42601');
    await expect(answeredBy(() => Promise.reject(refused))).rejects.toBe(refused);
  });
});
