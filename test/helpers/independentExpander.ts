import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { toUtcSql } from '../../src/main/core/dates/sqlDates';

/**
 * The independent RFC 5545 expander our recurrence tests compare with: Debian's python3-recurring-ical-events
 * (dateutil's rrule underneath), run through /usr/bin/python3 (the pyenv `python3` on PATH lacks it; .ci/run
 * installs the packages). Missing, it fails the test with the command that installs it: never a silent skip.
 */

const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./expandIcs.py', import.meta.url));

export interface SeriesCase {
  startLocal: string;
  timezone: string;
  allDay: boolean;
  lines: string[];
}

/** One occurrence start as both sides print it: the series' wall clock and the UTC instant ('-' all-day). */
export type Start = string;

const compact = (sql: string) => sql.replace(/[- :]/g, '').replace(/^(\d{8})(\d{6})$/, '$1T$2');

function addHour(sql: string): string {
  return new Date(Date.parse(`${sql.replace(' ', 'T')}Z`) + 3_600_000)
    .toISOString()
    .slice(0, 19)
    .replace('T', ' ');
}

/** An .ics calendar holding the series as one VEVENT (DTSTART in its zone, one hour or one day long). */
export function seriesIcs(series: SeriesCase): string {
  const start = series.allDay
    ? [`DTSTART;VALUE=DATE:${compact(series.startLocal).slice(0, 8)}`]
    : [`DTSTART;TZID=${series.timezone}:${compact(series.startLocal)}`];
  const end = series.allDay
    ? `DTEND;VALUE=DATE:${compact(addHour(series.startLocal.slice(0, 10) + ' 23:00:00')).slice(0, 8)}`
    : `DTEND;TZID=${series.timezone}:${compact(addHour(series.startLocal))}`;
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Calendar Desk//recurrence tests//EN',
    'BEGIN:VEVENT',
    'UID:series@calendar-desk.test',
    'DTSTAMP:20260101T000000Z',
    ...start,
    end,
    'SUMMARY:Rehearsal',
    ...series.lines,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/** The starts the independent expander finds up to `untilLocal` (inclusive), in order. */
export function independentStarts(series: SeriesCase, untilLocal: string): Start[] {
  const run = spawnSync(PYTHON, [SCRIPT, series.timezone, untilLocal], {
    input: seriesIcs(series),
    encoding: 'utf8',
  });
  if (run.error || run.status !== 0) {
    throw new Error(
      `The independent expander did not run (${run.error?.message ?? run.stderr.trim()}). ` +
        'Install it: apt-get install python3-icalendar python3-recurring-ical-events (used through /usr/bin/python3).',
    );
  }
  return run.stdout.split('\n').filter(Boolean);
}

/** Our local starts in the independent expander's form, converted to UTC by the app's own toUtcSql. */
export function asStarts(series: SeriesCase, locals: string[]): Start[] {
  return locals.map((local) =>
    series.allDay ? `${local}|-` : `${local}|${toUtcSql(local, series.timezone)}`,
  );
}
