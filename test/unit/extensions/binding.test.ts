import { describe, expect, it } from 'vitest';
import { LambdaTarget, StaticTarget, isExtensionAnswerStatus, newLambdaBindingProblem } from '../../../shared/domain/extensions/binding.js';

describe('the statuses an extension answers with', () => {
  it('are 200–599 with a body: no redirect, no 204 or 205', () => {
    for (const status of [200, 201, 202, 203, 206, 299, 400, 404, 409, 422, 500, 503, 599]) expect(isExtensionAnswerStatus(status), String(status)).toBe(true);
    for (const status of [100, 199, 204, 205, 300, 301, 302, 304, 307, 399, 600, 200.5, '200', null]) {
      expect(isExtensionAnswerStatus(status), String(status)).toBe(false);
    }
  });

  it('bound to a static document: a 204, 304 or 302 is refused when bound, not answered broken later', () => {
    const target = (statusCode: number) => StaticTarget.safeParse({ kind: 'static', statusCode, document: { ok: true } });
    expect(target(201).success).toBe(true);
    for (const statusCode of [204, 304, 302]) {
      const parsed = target(statusCode);
      expect(parsed.success, String(statusCode)).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('the status must be 200–599 with a body: not 3xx, 204 or 205');
    }
  });
});

describe('a new Lambda binding names its function, never an ARN', () => {
  it('takes a gr-extension- name, with a version or alias', () => {
    for (const name of ['gr-extension-cart', 'gr-extension-cart:live', 'gr-extension-cart:7', 'gr-extension-cart:$LATEST']) {
      expect(newLambdaBindingProblem(name), name).toBeUndefined();
    }
  });

  it('refuses an ARN of any account and region: the service invokes only its own (IAM grant, regional endpoint)', () => {
    for (const arn of [
      'arn:aws:lambda:us-east-1:999999999999:function:gr-extension-cart',
      'arn:aws:lambda:eu-west-1:123456789012:function:gr-extension-cart:live',
      'arn:aws-cn:lambda:cn-north-1:123456789012:function:gr-extension-cart',
      '123456789012:function:gr-extension-cart',
    ]) {
      expect(newLambdaBindingProblem(arn), arn).toContain('not an ARN');
    }
  });

  it('a binding stored with an ARN before is still read', () => {
    const stored = { kind: 'lambda', functionName: 'arn:aws:lambda:eu-west-1:123456789012:function:gr-extension-cart', secret: 'gres_'.padEnd(40, 'x') };
    expect(LambdaTarget.safeParse(stored).success).toBe(true);
  });
});
