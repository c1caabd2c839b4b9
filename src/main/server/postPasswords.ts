import type { AuthThrottle } from './middleware/auth';
import { ApiError } from './errors';
import type { ApiContext } from './state';

/** A password-protected post (event, venue, organizer) a request may carry the password of. */
export interface ProtectedPost {
  kind: 'event' | 'venue' | 'organizer';
  id: number;
  password: string;
}

/**
 * The password a request carries (`?password=`) for `post`, once the guess is counted. Wrong guesses are
 * counted per client and post by the sign-ins' throttle (middleware/auth.ts): after a few, that client must
 * wait (a single read answers 429 with `Retry-After`; a list shows the post locked), and while it waits even
 * the right password is refused, or the answer would tell the guesser which guess was right. `visibleAnyway`:
 * the caller sees the post whatever the password (an editor), so nothing is guessed.
 */
export type PostPassword = (
  post: ProtectedPost,
  options: { visibleAnyway: boolean; single: boolean },
) => string | undefined;

export function postPasswordOf(ctx: ApiContext, given: unknown, throttle?: AuthThrottle): PostPassword {
  const password = typeof given === 'string' ? given : undefined;
  return (post, { visibleAnyway, single }) => {
    if (password === undefined || !throttle || post.password === '' || visibleAnyway) return password;
    const key = `${ctx.request.ip} password:${post.kind}:${post.id}`;
    const wait = throttle.waitFor(key);
    if (wait > 0) {
      if (!single) return undefined;
      throw new ApiError(
        429,
        'rest_too_many_password_guesses',
        `Too many wrong passwords for this ${post.kind}. Wait ${wait} s, then try again with the right one.`,
        {},
        { 'Retry-After': String(wait) },
      );
    }
    if (password === post.password) throttle.succeed(key);
    else throttle.fail(key);
    return password;
  };
}
