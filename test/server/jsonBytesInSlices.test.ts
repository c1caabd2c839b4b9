import { describe, expect, it } from 'vitest';
import { jsonBytesInSlices } from '../../src/main/server/present/jsonBytes';

// A large answer (an import's 28,000 rows) is turned into JSON some thousands of items per turn of the event
// loop (issue 26): the bytes are exactly what JSON.stringify gives, and other work runs in between.
describe('jsonBytesInSlices', () => {
  it('gives the bytes of JSON.stringify for answers with long arrays at any depth', async () => {
    const rows = Array.from({ length: 9_001 }, (_, line) => ({
      line,
      title: line % 7 ? `Row ${line}` : 'Caf\u00e9 "quoted" \u2028',
      reason: line % 3 ? undefined : 'why',
      when: new Date(Date.UTC(2027, 0, 1 + (line % 30))),
    }));
    const answers: unknown[] = [
      { format: 'csv', events: 9001, rows, skipped: undefined, nested: { more: rows.slice(0, 5_000) } },
      { result: { rows, matched: [] }, done: 1, error: null },
      rows,
      [undefined, () => 1, ...rows],
      { small: [1, 2, 3], none: null },
      'text',
      null,
    ];
    for (const answer of answers) {
      const bytes = await jsonBytesInSlices(answer);
      expect(bytes.bytes.toString('utf8')).toBe(JSON.stringify(answer));
    }
  });

  it('lets the event loop go while a long array is written', async () => {
    const rows = Array.from({ length: 20_000 }, (_, line) => ({ line, title: `Row ${line}` }));
    // Queued before it starts: it runs before the answer is done only if the writing lets the loop go.
    let ranBetween = false;
    setImmediate(() => (ranBetween = true));
    const done = jsonBytesInSlices({ rows }).then(() => ranBetween);
    expect(await done).toBe(true);
  });
});
