import { z } from 'zod';
import { currencyPositionSchema } from './currency';

/** A colour as `<input type="color">` gives it: `#rrggbb`, lower case. */
export const hexColorSchema = z
  .string()
  .regex(/^#[0-9a-f]{6}$/, { error: 'a colour is written #rrggbb (six hexadecimal digits)' });

/**
 * The colours the user picked for categories, by category id (a category without one keeps its default
 * colour). Stored in the site settings: every window and browser of this calendar shows the same colours.
 */
export const categoryColorsSchema = z
  .record(
    z.string().regex(/^[1-9]\d*$/, { error: 'category ids are positive whole numbers' }),
    hexColorSchema,
  )
  .refine((colors) => Object.keys(colors).length <= 1000, { error: 'at most 1000 category colours' });

export type CategoryColors = z.infer<typeof categoryColorsSchema>;

/** `calendar-desk/v1/settings`: the site settings and who is calling (GET, and the answer of PUT). */
export const siteSettingsSchema = z
  .object({
    site_name: z.string(),
    site_description: z.string(),
    timezone: z.string(),
    currency_symbol: z.string(),
    currency_position: currencyPositionSchema,
    currency_code: z.string(),
    category_colors: categoryColorsSchema,
    /** How far ahead a series without an end is made, in months. */
    recurrence_horizon_months: z.number().int(),
    /** Months of past events the calendar feeds keep. */
    feed_past_months: z.number().int(),
    /** Records an author or contributor may add per hour (editors and administrators: no limit). */
    write_budget_creates_per_hour: z.number().int(),
    /** Events of repeating series an author or contributor may add per hour. */
    write_budget_occurrences_per_hour: z.number().int(),
    user: z.object({ login: z.string(), role: z.string() }),
  })
  .meta({ id: 'SiteSettings', description: 'The site settings and the signed-in caller' });

export type SiteSettings = z.infer<typeof siteSettingsSchema>;
