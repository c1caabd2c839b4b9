import { CHANGES_MAX_LIMIT, CURSOR_EXPIRED_CODE } from '../../../shared/schemas/changes';
import { CursorExpired, readChanges } from '../../core/changes';
import { changesArgs } from '../args/adminArgs';
import { ApiError } from '../errors';
import { presentChange } from '../present/change';
import { everyPostReaders } from './permissions';
import { endpoint, type RouteDef } from './table';

/**
 * `GET calendar-desk/v1/changes?since=CURSOR&limit=N` (CONTRACT §7): what changed since a cursor, for the
 * two-way sync of another Calendar Desk. Administrators and editors only: it shows drafts and private
 * records of every author. A cursor the feed cannot continue from is 410 `calendar_desk_cursor_expired`.
 */
export const changesRoutes: RouteDef[] = [
  {
    pattern: '/changes',
    path: '/changes',
    docPath: '/changes',
    endpoints: [
      endpoint({
        methods: ['GET'],
        args: changesArgs,
        permission: everyPostReaders,
        handle: ({ args, store, env }) => {
          const limit = Math.min(args.limit!, CHANGES_MAX_LIMIT);
          try {
            const read = readChanges(store, args.since, limit);
            return {
              body: {
                changes: read.changes.map((change) => presentChange(change, env)),
                cursor: read.cursor,
                more: read.more,
              },
            };
          } catch (error) {
            if (error instanceof CursorExpired) throw new ApiError(410, CURSOR_EXPIRED_CODE, error.message);
            throw error;
          }
        },
        doc: {
          summary: 'Changes since a cursor, in order',
          responses: { '200': { description: 'Changes, cursor and more (shared/schemas/changes.ts)' } },
        },
      }),
    ],
  },
];
