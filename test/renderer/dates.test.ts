import { describe, expect, it } from 'vitest';
import {
  durationMs,
  rangeQuery,
  scheduleFromCalendar,
  selectionToFields,
  formatEventRange,
  textColorOn,
  toCalendarEvent,
} from '../../src/renderer/src/calendar/dates';
import type { EventResponse } from '../../src/renderer/src/api/records';

const event = (fields: Partial<EventResponse>) =>
  ({
    id: 7,
    title: 'Board meeting',
    status: 'publish',
    all_day: false,
    start_date: '2026-03-29 10:00:00',
    end_date: '2026-03-29 11:30:00',
    utc_start_date: '2026-03-29 08:00:00',
    utc_end_date: '2026-03-29 09:30:00',
    timezone: 'Europe/Rome',
    featured: false,
    hide_from_listings: false,
    categories: [],
    venue: [],
    cost: '',
    ...fields,
  }) as EventResponse;

describe('calendar dates', () => {
  it('places a timed event by its UTC instants, so any display zone shows it right', () => {
    expect(toCalendarEvent(event({}))).toMatchObject({
      id: '7',
      allDay: false,
      start: '2026-03-29T08:00:00Z',
      end: '2026-03-29T09:30:00Z',
      classNames: ['status-publish'],
    });
  });

  it('gives an all-day event the exclusive end day the calendar expects', () => {
    const allDay = toCalendarEvent(
      event({ all_day: true, start_date: '2026-12-30 00:00:00', end_date: '2027-01-01 23:59:59' }),
    );
    expect(allDay).toMatchObject({ allDay: true, start: '2026-12-30', end: '2027-01-02' });
  });

  it('colours events by their first category, the same colour for the same category', () => {
    const music = { id: 3, name: 'Music' } as EventResponse['categories'][number];
    const art = { id: 4, name: 'Art' } as EventResponse['categories'][number];
    const first = toCalendarEvent(event({ categories: [music] }));
    expect(first.backgroundColor).toBe(
      toCalendarEvent(event({ id: 8, categories: [music, art] })).backgroundColor,
    );
    expect(first.backgroundColor).not.toBe(toCalendarEvent(event({ categories: [art] })).backgroundColor);
    expect(toCalendarEvent(event({ categories: [] })).backgroundColor).toBeUndefined();
  });

  it('uses the colour the user picked for a category, with text that reads on it', () => {
    const music = { id: 3, name: 'Music' } as EventResponse['categories'][number];
    const pale = toCalendarEvent(event({ categories: [music] }), { '3': '#ffd700' });
    expect(pale).toMatchObject({ backgroundColor: '#ffd700', textColor: '#000000' });
    expect(toCalendarEvent(event({ categories: [music] }), { '3': '#1f3a93' }).textColor).toBe('#ffffff');
    expect(textColorOn('#ffffff')).toBe('#000000');
    expect(textColorOn('#000000')).toBe('#ffffff');
    // Whatever the colour, the text reaches 4.5:1 (WCAG AA), mid-tones included.
    const channel = (value: number) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    const lum = (hex: string) =>
      0.2126 * channel(parseInt(hex.slice(1, 3), 16)) +
      0.7152 * channel(parseInt(hex.slice(3, 5), 16)) +
      0.0722 * channel(parseInt(hex.slice(5, 7), 16));
    for (let grey = 0; grey < 256; grey += 5) {
      for (const hex of [
        `#${grey.toString(16).padStart(2, '0').repeat(3)}`,
        `#2e8b${grey.toString(16).padStart(2, '0')}`,
        `#${grey.toString(16).padStart(2, '0')}5fa8`,
      ]) {
        const [light, dark] = [lum(hex), lum(textColorOn(hex))].sort((a, b) => b - a);
        expect((light + 0.05) / (dark + 0.05), hex).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('carries the venue and cost for the list view, the cost as typed with the currency of a bare amount', () => {
    const venue = { id: 5, venue: 'Teatro Verdi' } as unknown as EventResponse['venue'];
    const own: EventResponse['cost_details'] = {
      currency_symbol: '',
      currency_position: '',
      currency_code: '',
      values: [],
    };
    expect(
      toCalendarEvent(event({ venue, cost: '15€ / 10€ reduced', cost_details: own })).extendedProps,
    ).toEqual({ venue: 'Teatro Verdi', cost: '15€ / 10€ reduced' });
    const euro = { currency_symbol: '€', currency_position: 'postfix', currency_code: 'EUR' } as const;
    expect(toCalendarEvent(event({ cost: '15', cost_details: own }), {}, euro).extendedProps).toEqual({
      venue: '',
      cost: '15€',
    });
  });

  it('says when an event happens, its whole range for one over several days', () => {
    expect(formatEventRange(event({}), 'en-GB')).toMatch(/29 Mar 2026.*10:00.*11:30/);
    const festival = event({
      all_day: true,
      start_date: '2026-07-03 00:00:00',
      end_date: '2026-07-05 23:59:59',
    });
    const text = formatEventRange(festival, 'en-GB');
    expect(text).toMatch(/3/);
    expect(text).toMatch(/5 Jul 2026/);
    expect(text).not.toMatch(/:/);
  });

  it('marks drafts, featured and hidden events for styling', () => {
    expect(
      toCalendarEvent(event({ status: 'draft', featured: true, hide_from_listings: true })).classNames,
    ).toEqual(['status-draft', 'is-featured', 'is-hidden']);
  });

  it('writes a dragged timed event in its own zone, across a DST change', () => {
    // Dropped at 10:00 Rome time on the day summer time starts; the event lives in New York.
    expect(
      scheduleFromCalendar(
        false,
        '2026-03-29T10:00:00+02:00',
        '2026-03-29T11:30:00+02:00',
        'America/New_York',
      ),
    ).toEqual({ start_date: '2026-03-29 04:00:00', end_date: '2026-03-29 05:30:00', all_day: false });
  });

  it('gives a timed event without an end (dropped from the all-day row) one hour', () => {
    expect(scheduleFromCalendar(false, '2026-05-04T09:00:00+02:00', null, 'Europe/Rome')).toEqual({
      start_date: '2026-05-04 09:00:00',
      end_date: '2026-05-04 10:00:00',
      all_day: false,
    });
  });

  it('keeps the length of an event dropped from the all-day row into a time slot', () => {
    const ninetyMinutes = durationMs(event({}));
    expect(ninetyMinutes).toBe(90 * 60 * 1000);
    expect(
      scheduleFromCalendar(false, '2026-05-04T09:00:00+02:00', null, 'Europe/Rome', ninetyMinutes),
    ).toEqual({
      start_date: '2026-05-04 09:00:00',
      end_date: '2026-05-04 10:30:00',
      all_day: false,
    });
    // An all-day or zero-length event gets one hour.
    expect(durationMs(event({ all_day: true }))).toBe(60 * 60 * 1000);
    expect(durationMs(event({ utc_end_date: '2026-03-29 08:00:00' }))).toBe(60 * 60 * 1000);
  });

  it('turns an all-day drop into inclusive whole days', () => {
    expect(scheduleFromCalendar(true, '2026-05-04', '2026-05-07', 'Europe/Rome')).toEqual({
      start_date: '2026-05-04 00:00:00',
      end_date: '2026-05-06 23:59:59',
      all_day: true,
    });
    expect(scheduleFromCalendar(true, '2026-05-04', null, 'Europe/Rome').end_date).toBe(
      '2026-05-04 23:59:59',
    );
  });

  it('asks the API for the visible range in site time, end inclusive', () => {
    expect(rangeQuery('2026-10-26T00:00:00+01:00', '2026-12-07T00:00:00+01:00', 'Europe/Rome')).toEqual({
      start: '2026-10-26 00:00:00',
      end: '2026-12-06 23:59:59',
    });
    // The same instants asked by a calendar shown in UTC still mean Rome's wall clock.
    expect(rangeQuery('2026-10-25T23:00:00Z', '2026-12-06T23:00:00Z', 'Europe/Rome').start).toBe(
      '2026-10-26 00:00:00',
    );
  });

  it('prefills a new event from a selection', () => {
    expect(
      selectionToFields('2026-05-04T14:30:00+02:00', '2026-05-04T16:00:00+02:00', false, 'Europe/Rome'),
    ).toEqual({
      startDate: '2026-05-04',
      startTime: '14:30',
      endDate: '2026-05-04',
      endTime: '16:00',
      allDay: false,
    });
    expect(selectionToFields('2026-05-04', '2026-05-06', true, 'Europe/Rome')).toMatchObject({
      startDate: '2026-05-04',
      endDate: '2026-05-05',
      allDay: true,
    });
  });
});
