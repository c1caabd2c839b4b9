import { z } from 'zod';
import { ROLES } from '../../../shared/enums';
import { arg } from './define';
import { wpString } from './wpTypes';

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
