import { z } from 'zod';
import { organizerResponseSchema, venueResponseSchema } from './records';

/**
 * `POST calendar-desk/v1/venues/{id}/merge` and `…/organizers/{id}/merge` (issue 15 item 3): the venue (or
 * organizer) `id` is merged into `into`, which is kept. Shared by the server, its /doc and the desktop screens.
 */

/** The body: the id of the record to keep. */
export const mergeBodySchema = z.strictObject({
  // A JSON number, or digits (a form-encoded body, as WordPress' integer arguments take).
  into: z
    .union([
      z.number(),
      z
        .string()
        .regex(/^\s*\d+\s*$/)
        .transform(Number),
    ])
    .pipe(z.number().int().positive())
    .describe('The id of the venue (or organizer) to keep'),
});
export type MergeBody = z.infer<typeof mergeBodySchema>;

const answer = <T extends z.ZodType>(record: T, kind: 'Venue' | 'Organizer') =>
  z
    .strictObject({
      kept: record.describe(`The ${kind.toLowerCase()} kept, as GET /${kind.toLowerCase()}s/{id} shows it`),
      merged_id: z
        .number()
        .int()
        .describe(`The ${kind.toLowerCase()} merged, now in the trash (restorable, with no events)`),
      moved: z
        .number()
        .int()
        .nonnegative()
        .describe(
          'How many events now link to the kept record instead (every status, series occurrences too)',
        ),
      moved_event_ids: z.array(z.number().int()).describe('Those events, by id, ascending'),
    })
    .meta({ id: `${kind}Merge`, description: `What merging two ${kind.toLowerCase()}s did` });

export const venueMergeAnswerSchema = answer(venueResponseSchema, 'Venue');
export const organizerMergeAnswerSchema = answer(organizerResponseSchema, 'Organizer');
export type MergeAnswer = Omit<z.infer<typeof venueMergeAnswerSchema>, 'kept'> & {
  kept: { id: number };
};
