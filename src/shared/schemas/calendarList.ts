import { z } from 'zod';
import {
  embeddedTermSchema,
  eventResponseSchema,
  organizerResponseSchema,
  venueResponseSchema,
} from './records';

/** The most events `GET calendar-desk/v1/calendar` lists for one range; more is a 400 that says so. */
export const CALENDAR_LIST_MAX = 2000;
export const CALENDAR_TOO_MANY_CODE = 'calendar_desk_too_many_events';

/**
 * One event as the calendar's views show it: the fields of the month, week, day and list views and of the quick
 * view, named and shaped as in the Event record (so code reading an Event reads this too), without what only
 * the editor or a single read needs (description, dates' details, addresses of links, JSON-LD…). `cost` is as
 * typed for those who may edit the event, formatted otherwise, as `context=edit` gives it.
 */
export const calendarEventSchema = eventResponseSchema
  .pick({
    id: true,
    status: true,
    title: true,
    all_day: true,
    start_date: true,
    end_date: true,
    utc_start_date: true,
    utc_end_date: true,
    timezone: true,
    cost: true,
    cost_details: true,
    hide_from_listings: true,
    featured: true,
    recurrence: true,
    recurrence_id: true,
  })
  .extend({
    categories: z.array(embeddedTermSchema.pick({ id: true, name: true })),
    venue: z
      .union([
        venueResponseSchema.pick({ id: true, venue: true, address: true, city: true }),
        z.array(z.never()),
      ])
      .describe('The venue, or [] when none'),
    organizer: z.array(organizerResponseSchema.pick({ id: true, organizer: true })),
  })
  .meta({ id: 'CalendarEvent', description: 'An event as the calendar views show it' });

export const calendarListSchema = z
  .strictObject({
    events: z.array(calendarEventSchema),
    total: z.number().int(),
  })
  .meta({
    id: 'CalendarList',
    description: `Every event of a range, in one answer (at most ${CALENDAR_LIST_MAX})`,
  });

export type CalendarEvent = z.infer<typeof calendarEventSchema>;
export type CalendarList = z.infer<typeof calendarListSchema>;
