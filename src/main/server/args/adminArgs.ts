import { z } from 'zod';
import { ROLES } from '../../../shared/enums';
import {
  currencyCodeSchema,
  currencyPositionSchema,
  currencySymbolSchema,
} from '../../../shared/schemas/currency';
import { arg } from './define';
import { positiveInt, wpInteger, wpString } from './wpTypes';
import { isValidTimezone } from '../../core/dates/zones';
import { categoryColorsSchema } from '../../../shared/schemas/settings';
import {
  CHANGE_CURSOR_PATTERN,
  CHANGES_DEFAULT_LIMIT,
  CHANGES_MAX_LIMIT,
} from '../../../shared/schemas/changes';

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

/** `POST /calendar-desk/v1/app-passwords` */
export const appPasswordArgs = {
  name: arg(wpString().max(60, { error: '%s is longer than 60 characters.' }), {
    description: 'What the password is for (a calendar app), so it can be told apart',
    type: 'string',
    in: 'body',
  }),
};

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
        message: `%s must map category ids to colours: ${parsed.error.issues[0]!.message}.`,
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
  feed_past_months: arg(
    wpInteger().refine((months) => months >= 0 && months <= 120, {
      error: '%s must be a number of months from 0 to 120.',
    }),
    {
      description: 'How many months of past events the subscribable calendar feeds keep (default 3)',
      type: 'integer',
      in: 'body',
      extension: true,
    },
  ),
  write_budget_creates_per_hour: arg(
    wpInteger().refine((count) => count >= 1 && count <= 1_000_000, {
      error: '%s must be a number from 1 to 1000000.',
    }),
    {
      description:
        'How many records (events, venues, organizers, terms) an account below editor may add per hour (default 200); more is answered 429',
      type: 'integer',
      in: 'body',
      extension: true,
    },
  ),
  write_budget_occurrences_per_hour: arg(
    wpInteger().refine((count) => count >= 1 && count <= 1_000_000, {
      error: '%s must be a number from 1 to 1000000.',
    }),
    {
      description:
        'How many events of repeating series an account below editor may add per hour (default 5000); more is answered 429',
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

/** `GET /calendar-desk/v1/changes` (see shared/schemas/changes.ts). */
export const changesArgs = {
  since: arg(
    wpString().regex(CHANGE_CURSOR_PATTERN, {
      error:
        '%s is not a change cursor: send back the cursor an earlier answer gave, or leave it out to read everything.',
    }),
    {
      description: 'The cursor an earlier answer gave; without it, every record (a full read)',
      type: 'string',
      in: 'query',
    },
  ),
  limit: arg(positiveInt(), {
    description: `The most changes to return (at most ${CHANGES_MAX_LIMIT})`,
    type: 'integer',
    default: CHANGES_DEFAULT_LIMIT,
    in: 'query',
  }),
};
