import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler } from '../../../functions/index-changes/handler';

/** No search database is configured here: a step that reached the engine would throw for want of one. */
const event = (RequestType: 'Create' | 'Update' | 'Delete', Step: unknown) =>
  ({ RequestType, PhysicalResourceId: 'search-index', ResourceProperties: { ServiceToken: 'arn', Step } }) as unknown as CloudFormationCustomResourceEvent;

describe('the index-changes function, invoked by the deploy', () => {
  it.each(['migrate', 'retire'])('answers the deletion of the %s resource complete, touching nothing', async (step) => {
    await expect(handler(event('Delete', step))).resolves.toEqual({ PhysicalResourceId: 'search-index', IsComplete: true });
  });

  it.each([['no step', undefined], ['another step', 'drop']])('fails the deploy on %s, before reaching any store', async (_, step) => {
    await expect(handler(event('Update', step))).rejects.toThrow(`A search index deploy step is 'migrate' or 'retire', not ${JSON.stringify(step)}`);
  });
});
