import { z } from 'zod';
import { listToArray } from '../../core/values';

/**
 * zod schemas reproducing how WordPress coerces request arguments (REFERENCE §1.2). Messages may contain
 * `%s`, replaced by the argument's name when the error is reported.
 */

const TYPE_MESSAGE = (type: string) => `%s is not of type ${type}.`;

/**
 * WP `type: integer`: integers or integer-valued numeric strings, coerced to numbers. Digits beyond a safe
 * integer (PHP would read a float) are not an integer either, rather than an id no record can have.
 */
export const wpInteger = () =>
  z
    .union(
      [
        z.number().int(),
        z
          .string()
          .regex(/^\s*-?\d+\s*$/)
          .transform((value) => Number.parseInt(value, 10)),
      ],
      { error: TYPE_MESSAGE('integer') },
    )
    .refine(Number.isSafeInteger, { error: TYPE_MESSAGE('integer') });

/** WP `type: number`: a finite JSON number or a numeric string (no `Number()` coercion of `''`, `[]`, `true`). */
export const wpNumber = () =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i)
          .transform(Number),
      ],
      { error: TYPE_MESSAGE('number') },
    )
    .refine(Number.isFinite, { error: TYPE_MESSAGE('number') });

/**
 * WP `is_positive_int`: numeric, integral and > 0. WordPress runs this validator before the `integer` type
 * coercion, so every bad value (`abc`, `1.5`, `0`, `-1`) reports "Invalid parameter." (sample 32).
 */
export const positiveInt = () =>
  z
    .union(
      [
        z.number().int(),
        z
          .string()
          .regex(/^\s*\d+\s*$/)
          .transform((value) => Number.parseInt(value, 10)),
      ],
      { error: 'Invalid parameter.' },
    )
    .refine((value) => value > 0 && Number.isSafeInteger(value), { error: 'Invalid parameter.' });

const TRUE_WORDS = new Set(['true', '1']);
const FALSE_WORDS = new Set(['false', '0']);

/** WP `rest_is_boolean`: true/false, "true"/"false" in any case, "1"/"0", 1/0 — not "" nor padded words. */
export const wpBoolean = () =>
  z.union([z.boolean(), z.number(), z.string()]).transform((value, ctx) => {
    const word = String(value).toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    ctx.addIssue({ code: 'custom', message: TYPE_MESSAGE('boolean') });
    return z.NEVER;
  });

/** A string, as WP `type: string` requires (a JSON number is refused). */
export const wpString = () => z.string({ error: TYPE_MESSAGE('string') });

/** WP `is_string` validator: a non-empty string. */
export const nonEmptyString = () =>
  z.string({ error: 'Invalid parameter.' }).min(1, { error: 'Invalid parameter.' });

/** WP `is_string_or_empty`: any string, also ''. `null` is treated as empty. */
export const stringOrEmpty = () => z.union([wpString(), z.null()]).transform((value) => value ?? '');

export { isTruthy, listToArray, TRUTHY_WORDS } from '../../core/values';

/** A CSV-or-array list of items (see `listToArray`). */
export const csvList = () => z.unknown().transform((value) => listToArray(value));

/** A non-empty CSV-or-array list of positive integer ids. */
export const idList = () =>
  csvList().pipe(
    z
      .array(z.number().int().positive(), { error: 'Invalid parameter.' })
      .min(1, { error: 'Invalid parameter.' }),
  );

/**
 * A CSV-or-array list of ids or names, possibly empty: an item that is itself a list or an object (`a[b]=1`,
 * `[{…}]`) is refused, never read as text.
 */
export const scalarList = () =>
  csvList().pipe(z.array(z.union([z.number(), z.string()]), { error: 'Invalid parameter.' }));

/** A non-empty list of term references: ids, slugs or names. */
export const termRefList = () =>
  csvList().pipe(
    z
      .array(z.union([z.number().int(), z.string()]), { error: 'Invalid parameter.' })
      .min(1, { error: 'Invalid parameter.' }),
  );

/** An untyped flag or word read loosely (`has_events`): one value, never a list or an object. */
export const looseScalar = () =>
  z.union([z.string(), z.number(), z.boolean()], { error: 'Invalid parameter.' });

/** Untyped argument (no WP `type`): any value passes to the validators. */
export const untyped = () => z.unknown();
