import { z } from 'zod';
import { CSV_KINDS } from '../../exchange/csv';
import { EXPORT_FORMATS } from '../../exchange/exportText';
import { arg } from './define';
import { eventArchiveArgs } from './eventArgs';

/** The filters of `GET /events`, without its paging: an export is every matching event. */
const { page: _page, per_page: _perPage, ...eventFilterArgs } = eventArchiveArgs;

export const EXPORT_SCOPES = ['all', 'filter'] as const;

/** `GET /calendar-desk/v1/export` */
export const exportArgs = {
  format: arg(z.enum(EXPORT_FORMATS, { error: `%s is not one of ${EXPORT_FORMATS.join(', ')}.` }), {
    description:
      'json (the whole calendar, restorable with import: filters do not apply), ics (iCalendar) or csv (the columns of the WordPress importer)',
    type: 'string',
    in: 'query',
    required: true,
  }),
  kind: arg(z.enum(CSV_KINDS, { error: `%s is not one of ${CSV_KINDS.join(', ')}.` }), {
    description:
      'With format=csv: which records. In WordPress import venues and organizers before events; the filter chooses events only',
    type: 'string',
    in: 'query',
    default: 'events',
  }),
  scope: arg(z.enum(EXPORT_SCOPES, { error: `%s is not one of ${EXPORT_SCOPES.join(', ')}.` }), {
    description:
      'all: every event that is not in the trash; filter: the events GET /events would list with the same filters (every page; its date window and statuses by default)',
    type: 'string',
    in: 'query',
    default: 'all',
  }),
  ...eventFilterArgs,
};
