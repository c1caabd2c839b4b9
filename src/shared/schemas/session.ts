import { z } from 'zod';

/**
 * `POST calendar-desk/v1/session`: a browser exchanges a one-time sign-in code for a session cookie. Without a
 * code, the request's own credentials (a pasted token, as `Authorization: Bearer`) are exchanged instead.
 */
export const sessionRequestSchema = z.object({ code: z.string().min(1).max(200).optional() }).meta({
  id: 'SessionRequest',
  description: 'A one-time sign-in code, or nothing to use the credentials sent',
});

/** Who the new session signs in as. */
export const sessionAnswerSchema = z
  .object({ login: z.string(), role: z.string() })
  .meta({ id: 'SessionAnswer', description: 'The user the browser session is signed in as' });

/** `POST calendar-desk/v1/signin-codes`: a fresh one-time code, and the sign-in link that carries it. */
export const signInCodeAnswerSchema = z
  .object({ code: z.string(), link: z.string(), expires_utc: z.string() })
  .meta({
    id: 'SignInCode',
    description: 'A one-time sign-in code (valid once, for five minutes) and its link',
  });

export type SessionRequest = z.infer<typeof sessionRequestSchema>;
export type SignInCodeAnswer = z.infer<typeof signInCodeAnswerSchema>;
