import { DateTime } from 'luxon';
import type { EventForm } from './eventForm';

/** The fields that say where and when an event holds its venue: a change to any of them is a new booking. */
const BOOKING_FIELDS = [
  'venueId',
  'startDate',
  'startTime',
  'endDate',
  'endTime',
  'allDay',
  'timezone',
] as const;

/** A venue held from `start` to `end` (UTC ISO moments), as the API's booking query takes them. */
export interface VenueBooking {
  venueId: number;
  start: string;
  end: string;
}

/**
 * The booking to check for other events at the same venue and time before saving. Null when there is nothing
 * to check: no venue, dates that cannot be read, or a booking unchanged since the event was opened (a new
 * title for an event already sharing its venue does not ask again).
 */
export function venueBooking(form: EventForm, original?: EventForm): VenueBooking | null {
  if (form.venueId === null) return null;
  if (original && BOOKING_FIELDS.every((key) => original[key] === form[key])) return null;
  const at = (date: string, time: string) => DateTime.fromISO(`${date}T${time}`, { zone: form.timezone });
  const start = at(form.startDate, form.allDay ? '00:00' : form.startTime);
  const end = form.allDay ? at(form.endDate, '23:59:59') : at(form.endDate, form.endTime);
  if (!start.isValid || !end.isValid) return null;
  return { venueId: form.venueId, start: start.toUTC().toISO()!, end: end.toUTC().toISO()! };
}
