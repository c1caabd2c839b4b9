import { describe, expect, it } from 'vitest';
import { reversePage, type Page } from '../../src/renderer/src/api/records';

/** "Latest first" over an API that pages forwards only: every item once, in reverse, whatever the page size. */
function forwardList(total: number) {
  const items = Array.from({ length: total }, (_, index) => index + 1);
  const asked: number[] = [];
  const fetchPage = async (page: number, perPage: number): Promise<Page<number>> => {
    asked.push(page);
    return {
      items: items.slice((page - 1) * perPage, page * perPage),
      page,
      total,
      totalPages: Math.ceil(total / perPage),
    };
  };
  return { fetchPage, asked };
}

describe('reversePage', () => {
  it('reads the last items first, page after page, each exactly once', async () => {
    for (const [total, perPage] of [
      [45, 20],
      [40, 20],
      [7, 3],
      [1, 5],
    ]) {
      const { fetchPage } = forwardList(total);
      const pages = Math.ceil(total / perPage);
      const seen: number[] = [];
      for (let page = 1; page <= pages; page += 1) {
        const result = await reversePage(fetchPage, page, perPage);
        expect(result.total).toBe(total);
        expect(result.totalPages).toBe(pages);
        expect(result.items.length).toBeLessThanOrEqual(perPage);
        seen.push(...result.items);
      }
      expect(seen).toEqual(Array.from({ length: total }, (_, index) => total - index));
    }
  });

  it('answers an empty list and a page past the end with no items', async () => {
    expect((await reversePage(forwardList(0).fetchPage, 1, 20)).items).toEqual([]);
    expect((await reversePage(forwardList(5).fetchPage, 3, 20)).items).toEqual([]);
  });

  it('asks for no more than the pages holding the items (plus the first, for the total)', async () => {
    const { fetchPage, asked } = forwardList(45);
    expect((await reversePage(fetchPage, 1, 20)).items).toEqual([
      45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26,
    ]);
    expect(asked).toEqual([1, 2, 3]);
  });
});
