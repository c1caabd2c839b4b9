import { z } from 'zod';

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
