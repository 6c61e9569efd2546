import { describe, expect, it } from 'vitest';
import { callerSource, EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../../shared/auth/caller-source';

describe('callerSource: whose address the brute-force brake counts', () => {
  const SECRET = 'edge-secret-of-this-stack';
  const viaEdge = (secret: string) => ({ [VIEWER_ADDRESS_HEADER]: '203.0.113.9', [EDGE_SECRET_HEADER]: secret });

  it("is API Gateway's sourceIp without the distribution", () => {
    expect(callerSource('198.51.100.1', {}, undefined)).toBe('198.51.100.1');
    expect(callerSource('198.51.100.1', viaEdge(SECRET), undefined)).toBe('198.51.100.1');
  });

  it('is the viewer address the distribution passes, with its secret', () => {
    expect(callerSource('130.176.0.1', viaEdge(SECRET), SECRET)).toBe('203.0.113.9');
  });

  it('cannot be chosen by a caller going around the distribution: a wrong or missing secret keeps sourceIp', () => {
    expect(callerSource('198.51.100.1', viaEdge('guess'), SECRET)).toBe('198.51.100.1');
    expect(callerSource('198.51.100.1', { [VIEWER_ADDRESS_HEADER]: '203.0.113.9' }, SECRET)).toBe('198.51.100.1');
  });
});
