import autocannon from 'autocannon';
import type { LocalStack } from '../local/stack';

/** Requests per second through the local gateway: reads alone, and an 80/20 read/write mix. */
export async function throughput(stack: LocalStack, token: string, project: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const key = 'throughput-target';
  const draft = JSON.stringify({ key, objectTypeProperty: { arrayOfIntExample: [1, 2, 3] } });
  const { id } = await fetch(`${stack.url}/${project}/resource`, { method: 'PUT', headers, body: draft }).then(
    (response) => response.json() as Promise<{ id: string }>,
  );

  const run = (requests: autocannon.Request[]) =>
    autocannon({ url: stack.url, connections: 10, duration: 5, headers, requests }).then((result) => ({
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p97_5Ms: result.latency.p97_5,
      non2xx: result.non2xx,
      errors: result.errors,
    }));

  const read: autocannon.Request = { method: 'GET', path: `/${project}/resource/${id}` };
  // Overwrite by key: a write that always succeeds (version + 1), whatever the others did.
  const write: autocannon.Request = { method: 'PUT', path: `/${project}/resource`, body: draft };
  return {
    getById: await run([read]),
    mixed80Read20Write: await run([read, read, read, read, write]),
  };
}
