import { z } from 'zod';
import { importAnswerSchema } from './imports';

/**
 * Import addresses in the admin namespace `calendar-desk/v1` (shared by the server and the Import screen):
 * the body of `POST import-sources`. An address is http://, https://, webcal:// or webcals:// (webcal is the
 * same address over https), with no user name or password in it.
 */

/** The schemes an import address may have, and the one it is fetched with. */
export const IMPORT_ADDRESS_SCHEMES: Readonly<Record<string, 'http:' | 'https:'>> = {
  'http:': 'http:',
  'https:': 'https:',
  'webcal:': 'https:',
  'webcals:': 'https:',
};

/** Why `address` cannot be an import address, in a volunteer's words (null: it can). */
export function importAddressProblem(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return 'this is not a web address: copy the whole address, starting with https:// or webcal://';
  }
  if (!Object.hasOwn(IMPORT_ADDRESS_SCHEMES, url.protocol))
    return `Calendar Desk reads calendars from http://, https:// or webcal:// addresses, not ${url.protocol}//`;
  if (!url.hostname) return 'the address has no site name after //';
  if (url.username || url.password)
    return 'the address holds a user name or password: use the address the calendar gives for subscribing (for Google Calendar, its "secret address in iCal format")';
  return null;
}

export const importSourceInputSchema = z
  .object({
    url: z
      .string()
      .max(4096, 'the address is longer than 4096 characters')
      .superRefine((url, context) => {
        const problem = importAddressProblem(url);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      }),
    /** Shown in lists (default: the calendar's own name, X-WR-CALNAME, else the site's name). */
    name: z.string().trim().min(1).max(200).optional(),
    /** CSV dates day first: kept for the import of the address (an .ics has no such dates). */
    day_first: z.boolean().optional(),
  })
  .meta({ id: 'ImportSourceInput', description: 'A calendar address to follow' });
export type ImportSourceInput = z.infer<typeof importSourceInputSchema>;

/** An import address as lists show it: the address masked (`https://calendar.google.com/…`). */
export const importSourceViewSchema = z
  .object({
    id: z.string(),
    /** The address with its path cut: the secret part of a secret address is never listed. */
    url: z.string(),
    name: z.string(),
    day_first: z.boolean(),
    created_utc: z.string(),
    /** When it was last refreshed (ISO 8601, UTC), whether that worked or not. */
    last_refresh: z.string().nullable(),
    /** The last refresh that worked: its answer without rows, with `row_counts` by action. */
    last_result: z.record(z.string(), z.unknown()).nullable(),
    /** Why the last refresh failed (null: it worked). */
    last_error: z.string().nullable(),
    /**
     * The code of that failure (`import_too_large`: the calendar would create more events than an import may;
     * such an address is left out of "refresh all" until refreshed by itself).
     */
    last_error_code: z.string().nullable(),
  })
  .meta({ id: 'ImportSource', description: 'A calendar address events are imported from' });
export type ImportSourceView = z.infer<typeof importSourceViewSchema>;

/** What a refresh answers: an import's answer with the address it came from. */
export const sourceRefreshAnswerSchema = importAnswerSchema
  .extend({
    source_id: z.string(),
    /** The address answered 304 to the last validators: nothing was read or written. */
    not_modified: z.literal(true).optional(),
  })
  .meta({ id: 'ImportSourceRefresh', description: 'What a refresh of an import address did, row by row' });
