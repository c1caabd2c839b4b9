import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectInvalidParams } from './events.helpers';

// What one request may cost the server (it answers every other request on the same thread): recurrence lines
// up to the 1 MiB body limit, each listing as many added dates as its 2000 characters hold.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock: () => new Date('2026-12-01T09:00:00Z') });
});
afterAll(() => server?.close());

/** RDATE lines of distinct UTC date-times a minute apart from 1 January 2027, as long as a line may be. */
function rdateLines(count: number): string[] {
  let minute = 0;
  return Array.from({ length: count }, () => {
    const values: string[] = [];
    while (`RDATE:${values.join(',')}`.length < 1980) {
      const at = new Date(Date.UTC(2027, 0, 1) + minute++ * 61_000);
      values.push(`${at.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`);
    }
    return `RDATE:${values.join(',')}`;
  });
}

describe('the cost of a series request', () => {
  it('answers a body full of added dates within a few seconds (each line was compared date by date)', async () => {
    const recurrence = rdateLines(480); // some 55,000 dates, just under 1 MiB
    const started = Date.now();
    const result = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: {
        title: 'Many dates',
        start_date: '2026-12-31 10:00:00',
        end_date: '2026-12-31 11:00:00',
        recurrence,
      },
    });
    const elapsed = Date.now() - started;
    // More than the 5000 events a series may have: refused, with what to do.
    expectInvalidParams(result, 'recurrence');
    expect(result.body.data.params.recurrence).toMatch(/^These repeat rules make 5000 events or more/);
    // 12 s before, under 1 s after, on a busy two-core machine.
    expect(elapsed).toBeLessThan(4000);
  }, 60_000);
});
