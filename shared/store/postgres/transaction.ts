import type pg from 'pg';

/**
 * `work` in one transaction on a connection of the pool: `begin` opens it (with its settings), COMMIT
 * ends it, a throw rolls it back. A connection that failed as `discard` says is closed, not given back.
 */
export async function inTransaction<T>(pool: pg.Pool, begin: string, discard: (error: unknown) => boolean, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let discarded = false;
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    discarded = discard(error);
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release(discarded);
  }
}
