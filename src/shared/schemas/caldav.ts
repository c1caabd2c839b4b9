import { z } from 'zod';

/** `GET calendar-desk/v1/caldav`: the addresses a calendar app connects to, for the caller. */
export const caldavAddressesSchema = z
  .object({
    login: z.string(),
    /** The server's address (apps that discover the calendar themselves). */
    address: z.string(),
    /** The caller's calendar collection. */
    calendar: z.string(),
  })
  .meta({ id: 'CaldavAddresses', description: "The CalDAV addresses of the caller's calendar" });

/** `POST calendar-desk/v1/app-passwords`: a new application password, shown only in this answer. */
export const madeAppPasswordSchema = caldavAddressesSchema
  .extend({ name: z.string(), password: z.string() })
  .meta({
    id: 'MadeAppPassword',
    description: 'A new application password (shown once) and the CalDAV addresses',
  });

export type CaldavAddresses = z.infer<typeof caldavAddressesSchema>;
export type MadeAppPassword = z.infer<typeof madeAppPasswordSchema>;
