import { describe, expect, it } from 'vitest';
import { backoffDelay, retryAfterMs } from '../../src/main/sync/remoteClient';

describe('retry timing', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
  });

  it('backs off exponentially with jitter between half and one and a half of each step', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 100, () => 0))).toEqual([50, 100, 200, 400]);
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 100, () => 0.5))).toEqual([
      100, 200, 400, 800,
    ]);
    expect(backoffDelay(3, 100, () => 0.999)).toBeLessThan(1200);
  });
});
