import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../helpers/server';

// A repeating event in a subscribable feed: one VEVENT with its rule, as calendar apps expand it themselves;
// an occurrence made private here is removed from the rule, never shown with the series' title.

let server: TestServer;
let feedUrl: string;
let starts: string[];

/** The independent expansion of an .ics text: 'START|SUMMARY|UID' rows, START in UTC (Debian's packages). */
function independentRows(text: string, from: string, to: string): string[] {
  const script = fileURLToPath(new URL('../helpers/expandIcsFile.py', import.meta.url));
  const run = spawnSync('/usr/bin/python3', [script, from, to], { input: text, encoding: 'utf8' });
  if (run.error || run.status !== 0)
    throw new Error(
      `The independent expander did not run (${run.error?.message ?? run.stderr.trim()}). ` +
        'Install it: apt-get install python3-icalendar python3-recurring-ical-events.',
    );
  return run.stdout.split('\n').filter(Boolean);
}

beforeAll(async () => {
  server = await startTestServer();
  const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const created = await server.api('events', {
    method: 'POST',
    auth: server.admin,
    json: {
      title: 'Rehearsal',
      status: 'publish',
      timezone: 'Europe/Rome',
      start_date: `${day} 19:30:00`,
      end_date: `${day} 21:30:00`,
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const series = await server.api(`events?post_parent=${created.body.id}&per_page=50&show_hidden=true`, {
    auth: server.admin,
  });
  const occurrences = [...series.body.events].sort((a, b) =>
    a.utc_start_date.localeCompare(b.utc_start_date),
  );
  expect(occurrences).toHaveLength(5);
  starts = [created.body.utc_start_date, ...occurrences.map((event) => event.utc_start_date)];
  // The third date becomes a private board meeting, the fourth a public dress rehearsal.
  const change = async (id: number, json: Record<string, unknown>) =>
    expect(
      (
        await server.api(`events/${id}`, {
          method: 'POST',
          auth: server.admin,
          json: { ...json, scope: 'this' },
        })
      ).status,
    ).toBe(200);
  await change(occurrences[1].id, { title: 'Board meeting', status: 'private' });
  await change(occurrences[2].id, { title: 'Dress rehearsal' });
  const feeds = await server.api(`${server.engine.origin}/wp-json/calendar-desk/v1/feeds`, {
    auth: server.admin,
  });
  feedUrl = feeds.body.calendar.http;
}, 60_000);

afterAll(() => server?.close());

describe('a repeating event in a calendar feed', () => {
  it('is one series that an independent expander unfolds into its public dates, the private one left out', async () => {
    const response = await fetch(feedUrl);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.match(/^BEGIN:VEVENT/gm)).toHaveLength(2); // the series and its changed public date
    expect(text).toMatch(/^RRULE:FREQ=WEEKLY;COUNT=6/m);
    expect(text).not.toContain('Board meeting');
    const from = starts[0].slice(0, 10);
    const rows = independentRows(text, from, '2099-01-01').map((row) => row.split('|').slice(0, 2).join('|'));
    expect(rows).toEqual([
      `${starts[0]}|Rehearsal`,
      `${starts[1]}|Rehearsal`,
      `${starts[3]}|Dress rehearsal`,
      `${starts[4]}|Rehearsal`,
      `${starts[5]}|Rehearsal`,
    ]);
  });
});
