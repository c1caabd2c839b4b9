import { describe, expect, it } from 'vitest';
import { emptyEventForm, type EventForm } from '../../src/renderer/src/calendar/eventForm';
import { venueBooking } from '../../src/renderer/src/calendar/venueBooking';

/** What the editor asks the API about before saving, to warn when the venue is already booked then. */
const concert = (fields: Partial<EventForm> = {}): EventForm =>
  emptyEventForm({
    timezone: 'Europe/Rome',
    title: 'Concert',
    venueId: 7,
    startDate: '2026-07-10',
    startTime: '19:00',
    endDate: '2026-07-10',
    endTime: '21:30',
    ...fields,
  });

describe('the venue booking checked before saving', () => {
  it('is the venue and the event’s times in UTC, read in the event’s own zone', () => {
    expect(venueBooking(concert())).toEqual({
      venueId: 7,
      start: '2026-07-10T17:00:00.000Z',
      end: '2026-07-10T19:30:00.000Z',
    });
    expect(venueBooking(concert({ timezone: 'America/New_York' }))).toMatchObject({
      start: '2026-07-10T23:00:00.000Z',
    });
  });

  it('holds the venue from midnight to the last second of the end day for an all-day event', () => {
    expect(venueBooking(concert({ allDay: true, endDate: '2026-07-11' }))).toEqual({
      venueId: 7,
      start: '2026-07-09T22:00:00.000Z',
      end: '2026-07-11T21:59:59.000Z',
    });
  });

  it('is nothing to check without a venue, or with dates that cannot be read', () => {
    expect(venueBooking(concert({ venueId: null }))).toBeNull();
    expect(venueBooking(concert({ startDate: '' }))).toBeNull();
    expect(venueBooking(concert({ endTime: '25:00' }))).toBeNull();
  });

  it('is asked again only when the venue or the times change, not for a new title', () => {
    const opened = concert();
    expect(venueBooking(concert({ title: 'Concert (sold out)' }), opened)).toBeNull();
    expect(venueBooking(concert({ venueId: 8 }), opened)).toMatchObject({ venueId: 8 });
    expect(venueBooking(concert({ endTime: '22:00' }), opened)).toMatchObject({
      end: '2026-07-10T20:00:00.000Z',
    });
    expect(venueBooking(concert({ timezone: 'Europe/London' }), opened)).not.toBeNull();
    expect(venueBooking(concert({ allDay: true }), opened)).not.toBeNull();
  });
});
