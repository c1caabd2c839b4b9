import { describe, expect, it } from 'vitest';
import { appendAll } from '../../src/shared/arrays';

describe('appendAll', () => {
  it('appends in order, also more items than a call may have arguments', () => {
    const many = Array.from({ length: 300_000 }, (_, n) => n);
    const target = appendAll([-1], many);
    expect(target).toHaveLength(300_001);
    expect(target[0]).toBe(-1);
    expect(target[1]).toBe(0);
    expect(target.at(-1)).toBe(299_999);
  });
});
