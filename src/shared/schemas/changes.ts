import { z } from 'zod';
import {
  eventResponseSchema,
  organizerResponseSchema,
  termResponseSchema,
  venueResponseSchema,
} from './records';
import { syncKindSchema } from './sync';

/**
 * The change feed of the admin namespace: `GET /wp-json/calendar-desk/v1/changes?since=CURSOR&limit=N`
 * (CONTRACT §7; administrators and editors only, since it shows drafts and private records).
 *
 * - Every durable change of an event, venue, organizer, category or tag takes the next number of one
 *   sequence. The feed lists, in ascending `seq`, each record changed since the cursor once, at its latest
 *   change (`upsert`, with the record as `GET /events/{id}?context=edit` & co present it to an editor,
 *   trashed ones with `status: "trash"`), and each record deleted for good since then as a tombstone
 *   (`delete`: kind, id, uid).
 * - Without `since`: every record that exists now, in the same order and pages: a full read. Its later pages
 *   (read with `since`) hold tombstones only of records deleted after it began.
 * - A cursor older than the kept tombstones (90 days, at most 10,000), of another calendar, or ahead of this
 *   one (an older copy of its data put back) answers 410 `calendar_desk_cursor_expired`: read everything
 *   again (no `since`).
 * - `cursor` is opaque: send it back as `since`. With `more: true`, ask again with it for the next page;
 *   with `more: false` it is where to continue the next time.
 * - A `delete` of a record the reader does not know is to be ignored.
 */

/** `Y-m-d H:i:s` in UTC. */
const utcDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .describe('Y-m-d H:i:s, UTC');

/** The opaque position in a calendar's change feed: `<feed id>:<seq>`, in a full read `<feed id>:<seq>:<seq>`. */
export const CHANGE_CURSOR_PATTERN = /^[0-9a-f-]{36}:\d{1,15}(:\d{1,15})?$/;
export const changeCursorSchema = z
  .string()
  .regex(CHANGE_CURSOR_PATTERN, 'not a change cursor: send back the cursor a changes answer gave')
  .describe('Opaque: the cursor a previous answer gave');

const changeBase = {
  seq: z.number().int().positive().describe('Position of this change in the feed: ascending, never reused'),
  id: z.number().int().positive().describe("The record's id in this calendar"),
  uid: z.uuid().describe("The record's identity across calendars (CONTRACT §2)"),
  modified_utc: utcDate.describe('When the record was last changed (for a delete: when it was deleted)'),
};

/**
 * Upsert of one kind: `record` as the single GET of that kind presents it with `context=edit` to an editor
 * (content of password-protected records, costs as typed), without json_ld (embedded ones included); `etag`
 * is the ETag that GET answers.
 */
const upsertOf = <K extends z.ZodType, R extends z.ZodType>(kind: K, record: R) =>
  z.strictObject({
    ...changeBase,
    kind,
    action: z.literal('upsert'),
    etag: z.string().describe('The ETag the single GET of the record answers (for If-Match)'),
    record,
  });

/** A record deleted for good (terms; events, venues and organizers moved to the trash are upserts). */
export const changeDeleteSchema = z
  .strictObject({ ...changeBase, kind: syncKindSchema, action: z.literal('delete') })
  .meta({ id: 'ChangeDelete', description: 'A record deleted for good: a tombstone' });

/** One change, as the server gives it. */
export const changeSchema = z.union([
  upsertOf(z.literal('event'), eventResponseSchema),
  upsertOf(z.literal('venue'), venueResponseSchema),
  upsertOf(z.literal('organizer'), organizerResponseSchema),
  upsertOf(z.enum(['category', 'tag']), termResponseSchema),
  changeDeleteSchema,
]);

/** The answer, exactly as the server gives it (the /doc document and the tests use this one). */
export const changesResponseSchema = z
  .strictObject({
    changes: z.array(changeSchema).describe('In ascending seq'),
    cursor: changeCursorSchema.describe('Send it back as since: for the next page, or the next changes'),
    more: z.boolean().describe('true: more changes follow at once, ask again with cursor'),
  })
  .meta({ id: 'Changes', description: 'Changes since a cursor, in order, and where to continue' });

/**
 * The answer as a sync reads it from another Calendar Desk: the envelope checked, each `record` left to the
 * sync's own lenient reader of remote records (a newer remote may add fields).
 */
export const changesPageSchema = z.object({
  changes: z.array(
    z.discriminatedUnion('action', [
      z.object({
        ...changeBase,
        kind: syncKindSchema,
        action: z.literal('upsert'),
        etag: z.string(),
        record: z.record(z.string(), z.unknown()),
      }),
      z.object({ ...changeBase, kind: syncKindSchema, action: z.literal('delete') }),
    ]),
  ),
  cursor: changeCursorSchema,
  more: z.boolean(),
});
export type ChangesPage = z.infer<typeof changesPageSchema>;
export type Change = ChangesPage['changes'][number];

/** The error code of a cursor too old (or not of this calendar): the reader must read everything again. */
export const CURSOR_EXPIRED_CODE = 'calendar_desk_cursor_expired';

/** Most changes in one answer, and how many when `limit` is not sent. */
export const CHANGES_MAX_LIMIT = 500;
export const CHANGES_DEFAULT_LIMIT = 100;
