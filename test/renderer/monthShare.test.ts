import { describe, expect, it } from 'vitest';
import type { CalendarEvent } from '../../src/renderer/src/api/records';
import { daysOf, monthShare } from '../../src/renderer/src/calendar/monthShare';

// The month view is given, per day, the four events it shows (in FullCalendar's order) and those tied with the
// fourth; the rest are counted
// for the day's "+N more" (drawn by the app, see ownMoreLinks). Site zone Europe/Rome (UTC+1 in December).
const ZONE = 'Europe/Rome';
let nextId = 1;
function timed(title: string, utcStart: string, utcEnd: string): CalendarEvent {
  return {
    id: nextId++,
    title,
    all_day: false,
    utc_start_date: utcStart,
    utc_end_date: utcEnd,
    start_date: utcStart,
    end_date: utcEnd,
  } as unknown as CalendarEvent;
}
function allDay(title: string, start: string, end: string): CalendarEvent {
  return {
    id: nextId++,
    title,
    all_day: true,
    start_date: `${start} 00:00:00`,
    end_date: `${end} 23:59:59`,
    utc_start_date: `${start} 00:00:00`,
    utc_end_date: `${end} 23:59:59`,
  } as unknown as CalendarEvent;
}

describe('monthShare', () => {
  it('gives a crowded day its first four events in start order and counts the others', () => {
    // Ten events on 2026-12-10, listed latest first.
    const day = Array.from({ length: 10 }, (_, i) =>
      timed(`E${9 - i}`, `2026-12-10 ${String(17 - i).padStart(2, '0')}:00:00`, `2026-12-10 18:30:00`),
    );
    const quiet = timed('Other day', '2026-12-11 09:00:00', '2026-12-11 10:00:00');
    const share = monthShare([...day, quiet], ZONE);
    expect(share.events.map((event) => event.title).sort()).toEqual(
      ['E0', 'E1', 'E2', 'E3', 'Other day'].sort(),
    );
    expect(share.leftOut).toEqual(new Map([['2026-12-10', 6]]));
    // A day opened with its "+N more" gets all its events.
    const whole = monthShare([...day, quiet], ZONE, new Set(['2026-12-10']));
    expect(whole.events).toHaveLength(11);
    expect(whole.leftOut.size).toBe(0);
  });

  it('orders a day as FullCalendar does (start, longer first, then title) and keeps events tied with the fourth', () => {
    const festival = allDay('Festival', '2026-12-09', '2026-12-11');
    const at = (title: string, hour: string) =>
      timed(title, `2026-12-10 ${hour}:00:00`, `2026-12-10 20:00:00`);
    // Same start and end: the title decides (as FullCalendar's eventOrder does), so nothing ties.
    const titled = [
      at('Zither', '08'),
      at('Bass', '08'),
      at('Alto', '08'),
      at('Tenor', '08'),
      at('Oboe', '08'),
    ];
    const share = monthShare([...titled, festival], ZONE);
    expect(share.events.map((event) => event.title).sort()).toEqual(['Alto', 'Bass', 'Festival', 'Oboe']);
    expect(share.leftOut).toEqual(new Map([['2026-12-10', 2]]));
    // Alike in start, end and title: FullCalendar is given both and chooses.
    const alike = [at('A', '08'), at('B', '09'), at('C', '10'), at('C', '10'), at('D', '11'), at('E', '12')];
    const tied = monthShare([...alike, festival], ZONE);
    expect(tied.events.map((event) => event.title).sort()).toEqual(['A', 'B', 'C', 'C', 'Festival']);
    expect(tied.leftOut).toEqual(new Map([['2026-12-10', 2]]));
    // Four events or fewer: all given, nothing counted.
    const fewer = monthShare([at('A', '08'), at('B', '09'), at('C', '10'), festival], ZONE);
    expect(fewer.events).toHaveLength(4);
    expect(fewer.leftOut.size).toBe(0);
  });

  it('reads the days of a timed event in the site zone, an end at midnight not covering the next day', () => {
    // 23:30 UTC on the 9th is 00:30 on the 10th in Rome; ending at 23:00 UTC is midnight there.
    expect(daysOf(timed('Late', '2026-12-09 23:30:00', '2026-12-10 23:00:00'), ZONE)).toEqual(['2026-12-10']);
    expect(daysOf(timed('Two days', '2026-12-09 20:00:00', '2026-12-10 10:00:00'), ZONE)).toEqual([
      '2026-12-09',
      '2026-12-10',
    ]);
    expect(daysOf(allDay('Weekend', '2026-12-12', '2026-12-13'), ZONE)).toEqual(['2026-12-12', '2026-12-13']);
  });
});
