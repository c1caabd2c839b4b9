/*
 * Large import files (issue 26 item 3), shared by the stall tests and bench/importStalls.mjs: an .ics of long
 * daily series just under the import budget, and a CSV of many single events.
 */

/** An .ics of `series` daily series from 5 January 2027 (COUNT=5000: each up to the two-year horizon). */
export function bigIcs(series: number, uidPrefix: string, title = 'Event'): string {
  const events = Array.from({ length: series }, (_, index) =>
    [
      'BEGIN:VEVENT',
      `UID:${uidPrefix}-${index}`,
      'DTSTAMP:20260101T000000Z',
      `SUMMARY:${title} ${uidPrefix}-${index}`,
      // Each series at its own time of day: a pattern of its own, its dates expanded for it (as in a real file).
      `DTSTART:20270105T${String(10 + Math.floor(index / 60)).padStart(2, '0')}${String(index % 60).padStart(2, '0')}00Z`,
      'RRULE:FREQ=DAILY;COUNT=5000',
      'END:VEVENT',
    ].join('\r\n'),
  );
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Test//EN', ...events, 'END:VCALENDAR'].join(
    '\r\n',
  );
}

/** A CSV of `rows` single events, one a day from 1 May 2027, in the importer's columns. */
export function csvRows(rows: number): string {
  const start = Date.UTC(2027, 4, 1);
  const lines = ['Event Name,Event Start Date,Event Start Time'];
  for (let row = 0; row < rows; row++)
    lines.push(`Row ${row},${new Date(start + (row % 700) * 86_400_000).toISOString().slice(0, 10)},12:00`);
  return `${lines.join('\n')}\n`;
}
