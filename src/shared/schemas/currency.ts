import { z } from 'zod';

/**
 * How a cost's currency is written: the event fields `currency_symbol`, `currency_position`, `currency_code`
 * (the keys of `cost_details`, CONTRACT §2) and the site defaults of the Settings screen. One source for the
 * server's argument checks, the OpenAPI document and the renderer's inputs.
 */

/** Where the symbol goes: `prefix` = `$10`, `postfix` = `10€` (the original's `_EventCurrencyPosition`). */
export const CURRENCY_POSITIONS = ['prefix', 'postfix'] as const;
export type CurrencyPosition = (typeof CURRENCY_POSITIONS)[number];

/** The longest symbol accepted: enough for `CHF`, `zł`, `R$`, `kr.`. */
export const CURRENCY_SYMBOL_MAX = 8;

/** A currency symbol: short text without digits (a digit would be read as part of the price); '' = none. */
export const currencySymbolSchema = z
  .string({ error: '%s is not of type string.' })
  .trim()
  .max(CURRENCY_SYMBOL_MAX, { error: `%s is longer than ${CURRENCY_SYMBOL_MAX} characters.` })
  .refine((symbol) => !/[\d<>]/.test(symbol), {
    error: '%s must not contain digits or < > (use a symbol such as €, $ or CHF).',
  });

const POSITION_MESSAGE = '%s is not one of prefix, postfix.';
export const currencyPositionSchema = z.enum(CURRENCY_POSITIONS, { error: POSITION_MESSAGE });

const CODE_MESSAGE = '%s is not a three-letter currency code such as EUR or USD.';
/** An ISO 4217 code (`EUR`), as schema.org's `priceCurrency` wants it; lower case is accepted and raised. */
export const currencyCodeSchema = z
  .string({ error: '%s is not of type string.' })
  .trim()
  .regex(/^[A-Za-z]{3}$/, { error: CODE_MESSAGE })
  .transform((code) => code.toUpperCase());

/**
 * An event's own currency fields: `''` or `null` = none of its own (the cost text's, else the site default).
 * Single schemas rather than unions, so a bad value gets its own message, not zod's generic one.
 */
export const eventCurrencySchemas = {
  symbol: currencySymbolSchema.nullable(),
  position: z.enum([...CURRENCY_POSITIONS, ''], { error: POSITION_MESSAGE }).nullable(),
  code: z
    .string({ error: '%s is not of type string.' })
    .trim()
    .regex(/^([A-Za-z]{3})?$/, { error: CODE_MESSAGE })
    .transform((code) => code.toUpperCase())
    .nullable(),
};

/** The site's currency defaults, as `calendar-desk/v1/settings` shows them. */
export const siteCurrencySchema = z.strictObject({
  currency_symbol: z
    .string()
    .describe('Default currency symbol (the original setting defaultCurrencySymbol)'),
  currency_position: currencyPositionSchema.describe(
    'Default symbol position (the original setting reverseCurrencyPosition: postfix when set)',
  ),
  currency_code: z
    .string()
    .describe('Default ISO 4217 currency code (the original setting defaultCurrencyCode)'),
});
export type SiteCurrency = z.infer<typeof siteCurrencySchema>;
