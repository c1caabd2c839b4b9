// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { Calendar, type EventSourceFuncArg } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import listPlugin from '@fullcalendar/list';
import luxonPlugin from '@fullcalendar/luxon3';
import { cachedZonePlugin } from '../../src/renderer/src/calendar/zonePlugin';
import { rangeQuery, visibleRange } from '../../src/renderer/src/calendar/dates';
import { CALENDAR_VIEWS } from '../../src/renderer/src/stores/calendarPlace';

const ZONE = 'Europe/Rome';

/** The API bounds FullCalendar itself asks for when created on `view` at `date` (it fetches before drawing). */
function fullCalendarAsks(view: string, date: string, firstDay: number): { start: string; end: string } {
  let asked: EventSourceFuncArg | null = null;
  const calendar = new Calendar(document.createElement('div'), {
    plugins: [dayGridPlugin, timeGridPlugin, listPlugin, luxonPlugin, cachedZonePlugin],
    initialView: view,
    initialDate: date,
    timeZone: ZONE,
    firstDay,
    events: (info, success) => {
      asked = info;
      success([]);
    },
  });
  calendar.destroy();
  if (!asked) throw new Error('FullCalendar asked for no events');
  const { startStr, endStr } = asked as EventSourceFuncArg;
  return rangeQuery(startStr, endStr, ZONE);
}

// The calendar's first events are asked for before FullCalendar exists: with other bounds than its own they
// would be thrown away and asked again (correct, but the month would be drawn twice as late).
describe('the first period asked for before the calendar is created', () => {
  // A month starting on a Monday and one on a Sunday, February, the days around summer time, a year's end.
  const dates = [
    '2026-06-15',
    '2026-11-24',
    '2027-02-01',
    '2026-03-29',
    '2026-10-25',
    '2026-12-31',
    '2027-01-01',
  ];
  // Weeks from Sunday (United States), Monday (Europe) and Saturday (much of the Middle East).
  for (const view of CALENDAR_VIEWS) {
    it(`covers the same days as FullCalendar's own request in ${view}, whatever day weeks start on`, () => {
      for (const firstDay of [0, 1, 6]) {
        for (const date of dates) {
          expect(visibleRange(view, date, firstDay), `${date} from day ${firstDay}`).toEqual(
            fullCalendarAsks(view, date, firstDay),
          );
        }
      }
    });
  }

  it('is the month grid of six whole weeks from Monday, or from Sunday', () => {
    expect(visibleRange('dayGridMonth', '2026-11-24', 1)).toEqual({
      start: '2026-10-26 00:00:00',
      end: '2026-12-06 23:59:59',
    });
    expect(visibleRange('dayGridMonth', '2026-11-24', 0)).toEqual({
      start: '2026-11-01 00:00:00',
      end: '2026-12-12 23:59:59',
    });
  });
});
