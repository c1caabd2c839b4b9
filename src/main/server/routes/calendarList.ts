import { runEventQuery } from '../../core/eventQuery';
import type { StoredEvent } from '../../store/schema';
import {
  CALENDAR_LIST_MAX,
  CALENDAR_TOO_MANY_CODE,
  calendarListSchema,
} from '../../../shared/schemas/calendarList';
import { eventArchiveArgs } from '../args/eventArgs';
import { ApiError } from '../errors';
import { editsEvent } from '../present/event';
import { presentCalendarEvent } from '../present/calendarEvent';
import { archiveQueryOf } from '../args/archiveFilters';
import { signedIn } from './permissions';
import { endpoint, type ApiRequest, type ApiResponse, type RouteDef } from './table';

// The filters of `GET /events`, without its pages: a calendar range comes whole.
const { page: _page, per_page: _perPage, ...calendarListArgs } = eventArchiveArgs;

async function calendarList(request: ApiRequest<typeof calendarListArgs>): Promise<ApiResponse> {
  // The same query as the events archive (dates, statuses by role, hidden events, filters).
  const { query } = archiveQueryOf(request);
  const { total, items } = await runEventQuery(query, request.store, { offset: 0, limit: CALENDAR_LIST_MAX });
  if (total > CALENDAR_LIST_MAX) {
    throw new ApiError(
      400,
      CALENDAR_TOO_MANY_CODE,
      `These dates hold ${total} events, more than the ${CALENDAR_LIST_MAX} a calendar view lists at once. ` +
        'Ask for fewer days, or filter by category, venue or organizer.',
      { total, max: CALENDAR_LIST_MAX },
    );
  }
  // As with context=edit: the cost as typed, and protected events' content, for those who may edit them.
  const env = { ...request.env, editContext: true };
  const passwordOf = (event: StoredEvent) =>
    request.postPassword(
      { kind: 'event', id: event.id, password: event.password },
      { visibleAnyway: editsEvent(event, env), single: false },
    );
  return {
    body: { events: items.map((event) => presentCalendarEvent(event, env, passwordOf(event))), total },
  };
}

/**
 * `GET calendar-desk/v1/calendar?…` (the filters of `GET /events`): every event of a range in one answer, with
 * only the fields the calendar's views show (shared/schemas/calendarList.ts), for the desktop calendar. The
 * events archive's visibility rules apply as they are; more than {@link CALENDAR_LIST_MAX} events is a 400.
 */
export const calendarListRoutes: RouteDef[] = [
  {
    pattern: '/calendar',
    path: '/calendar',
    docPath: '/calendar',
    endpoints: [
      endpoint({
        methods: ['GET'],
        args: calendarListArgs,
        // Signed-in callers only: the admin namespace opens nothing to anyone (the public archive is /events).
        permission: signedIn,
        handle: calendarList,
        doc: {
          summary: 'Every event of a range, with the fields the calendar views show',
          responses: {
            '200': { description: 'The events, in the order of GET /events', schema: calendarListSchema },
            '400': { description: `More than ${CALENDAR_LIST_MAX} events: ${CALENDAR_TOO_MANY_CODE}` },
          },
        },
      }),
    ],
  },
];
