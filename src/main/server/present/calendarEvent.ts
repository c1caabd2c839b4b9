import type { StoredEvent } from '../../store/schema';
import { formatCost, siteCurrency, typedCost, costDetailsValues } from '../../core/cost';
import type { CalendarEvent } from '../../../shared/schemas/calendarList';
import type { PresentEnv } from './common';
import {
  canAccessProtected,
  editsEvent,
  embeddedTermsOf,
  eventSeriesFields,
  shownOrganizersOf,
  shownVenueOf,
} from './event';
import { presentOrganizer, presentVenue } from './linkedPosts';
import { blankProtected } from './protect';

/**
 * An event as the calendar's views show it (shared/schemas/calendarList.ts): the fields of {@link presentEvent}
 * they read, with the same rules — the cost as typed to those who may edit the event (`editContext`), a
 * protected event blanked unless its password came or the caller edits it, venue and organizers as embedded.
 */
export function presentCalendarEvent(
  event: StoredEvent,
  env: PresentEnv,
  password: string | undefined,
): CalendarEvent {
  const venue = shownVenueOf(event, env);
  const shownVenue = venue ? presentVenue(venue, env) : undefined;
  const body: CalendarEvent = {
    id: event.id,
    status: event.status,
    title: event.title,
    all_day: event.allDay,
    start_date: event.startLocal,
    end_date: event.endLocal,
    utc_start_date: event.startUtc,
    utc_end_date: event.endUtc,
    timezone: event.timezone,
    cost: editsEvent(event, env)
      ? typedCost(event.cost)
      : formatCost(
          event.cost,
          event.currencySymbol,
          event.currencyPosition,
          siteCurrency(env.store.settings),
        ),
    cost_details: {
      currency_symbol: event.currencySymbol,
      currency_code: event.currencyCode ?? '',
      currency_position: event.currencyPosition,
      values: costDetailsValues(event.cost),
    },
    hide_from_listings: event.hideFromListings,
    featured: event.featured,
    ...eventSeriesFields(event, env),
    categories: embeddedTermsOf(event.categoryIds, env).map((term) => ({ id: term.id, name: term.name })),
    venue: shownVenue
      ? { id: venue!.id, venue: shownVenue.venue, address: shownVenue.address, city: shownVenue.city }
      : [],
    organizer: shownOrganizersOf(event, env).map((organizer) => {
      const shown = presentOrganizer(organizer, env);
      return { id: organizer.id, organizer: shown.organizer };
    }),
  };
  return canAccessProtected(event, env, password) ? body : blankProtected(body);
}
