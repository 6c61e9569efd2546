import { describe, expect, it } from 'vitest';

Object.assign(process.env, { TABLE_NAME: 'composition-root-test', AWS_REGION: 'eu-central-1' });
const root = await import('../../shared/composition-root');

describe('the composition root', () => {
  it('builds each part once per process and hands the same one to every caller', () => {
    expect(root.resourceService()).toBe(root.resourceService());
    expect(root.resourceStore()).toBe(root.resourceStore());
    expect(root.dynamoDb()).toBe(root.dynamoDb());
  });

  it('retries a part whose build failed, instead of keeping the failure', () => {
    const { SIGNING_KEY_ARN, SIGNING_KEY_FILE } = process.env;
    delete process.env.SIGNING_KEY_ARN;
    delete process.env.SIGNING_KEY_FILE;
    expect(() => root.signingKeys()).toThrow(/SIGNING_KEY_ARN nor SIGNING_KEY_FILE/);
    process.env.SIGNING_KEY_ARN = 'arn:aws:kms:eu-central-1:000000000000:key/test';
    try {
      expect(root.signingKeys()).toBe(root.signingKeys());
    } finally {
      for (const [name, value] of Object.entries({ SIGNING_KEY_ARN, SIGNING_KEY_FILE })) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
