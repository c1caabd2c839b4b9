import { z } from 'zod';
import { ROLES } from '../../../shared/enums';
import {
  currencyCodeSchema,
  currencyPositionSchema,
  currencySymbolSchema,
} from '../../../shared/schemas/currency';
import { arg } from './define';
import { wpInteger, wpString } from './wpTypes';
import { isValidTimezone } from '../../core/dates/zones';
import { categoryColorsSchema } from '../../../shared/schemas/settings';

/** Arguments of the admin namespace (`calendar-desk/v1`), validated like the public API's. */

const login = (where: 'body' | 'path') =>
  arg(
    wpString()
      .min(1, { error: '%s must not be empty.' })
      .max(60, { error: '%s is longer than 60 characters.' }),
    {
      description: 'The login of the user',
      type: 'string',
      in: where,
      required: true,
    },
  );

/** `POST /calendar-desk/v1/users` */
export const createUserArgs = {
  login: login('body'),
  role: arg(z.enum(ROLES, { error: `%s is not one of ${ROLES.join(', ')}.` }), {
    description: 'The role of the new user',
    type: 'string',
    in: 'body',
    required: true,
  }),
};

/** `POST /calendar-desk/v1/users/{login}/revoke` */
export const revokeUserArgs = {
  login: login('path'),
};

/** `PUT /calendar-desk/v1/settings`: every field optional, only what is sent changes. */
export const updateSettingsArgs = {
  timezone: arg(
    wpString().refine((zone) => zone !== '' && isValidTimezone(zone), {
      error: '%s is not a time zone (use an IANA name such as Europe/Rome, or UTC+2).',
    }),
    { description: 'The site time zone, used for new events and list dates', type: 'string', in: 'body' },
  ),
  site_name: arg(wpString().max(200, { error: '%s is longer than 200 characters.' }), {
    description: 'The site name',
    type: 'string',
    in: 'body',
  }),
  site_description: arg(wpString().max(500, { error: '%s is longer than 500 characters.' }), {
    description: 'The site description',
    type: 'string',
    in: 'body',
  }),
  currency_symbol: arg(currencySymbolSchema, {
    description:
      'The default currency symbol of costs (the original setting defaultCurrencySymbol; "" for none)',
    type: 'string',
    in: 'body',
  }),
  currency_position: arg(currencyPositionSchema, {
    description: 'Where the default currency symbol goes: prefix ($10) or postfix (10€)',
    type: 'string',
    in: 'body',
  }),
  currency_code: arg(currencyCodeSchema, {
    description: 'The default ISO 4217 currency code, e.g. EUR (schema.org priceCurrency)',
    type: 'string',
    in: 'body',
  }),
  category_colors: arg(
    z.unknown().transform((value, context) => {
      const parsed = categoryColorsSchema.safeParse(value);
      if (parsed.success) return parsed.data;
      context.addIssue({
        code: 'custom',
        message: `%s must map category ids to colours: ${parsed.error.issues[0].message}.`,
      });
      return z.NEVER;
    }),
    {
      description:
        'Colours of categories in the calendar, by category id ({"12": "#2f6fdf"}); replaces the whole map',
      type: 'object',
      in: 'body',
      extension: true,
    },
  ),
  recurrence_horizon_months: arg(
    wpInteger().pipe(
      z
        .number()
        .int()
        .min(1, { error: '%s must be 1 to 120 months.' })
        .max(120, { error: '%s must be 1 to 120 months.' }),
    ),
    {
      description:
        'How many months ahead repeating events without an end are created (default 24), as the original\'s "create recurring events in advance"',
      type: 'integer',
      in: 'body',
      extension: true,
    },
  ),
};

/** `GET /calendar-desk/v1/media`: part of a stored file name. */
export const mediaSearchArgs = {
  search: arg(wpString().min(1, { error: '%s must not be empty: give part of a file name.' }), {
    description: 'Part of the file name of an uploaded picture',
    type: 'string',
    in: 'query',
    required: true,
  }),
};
