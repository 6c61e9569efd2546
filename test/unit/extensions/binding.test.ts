import { describe, expect, it } from 'vitest';
import { StaticTarget, isExtensionAnswerStatus } from '../../../shared/domain/extensions/binding.js';

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
