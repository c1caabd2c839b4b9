import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { CalendarStore } from '../store/store';
import type { RemoteAuth } from './remoteClient';
import { SecretBoxError, type SecretBox } from './secretBox';
import type { RemoteInput, RemoteView } from '../../shared/schemas/sync';

export { remoteInputSchema, type RemoteInput } from '../../shared/schemas/sync';

export const REMOTES_KEY = 'remotes';

const storedRemoteSchema = z.object({
  id: z.string(),
  name: z.string(),
  root: z.string(),
  namespace: z.string(),
  authType: z.enum(['token', 'password', 'none']),
  user: z.string(),
  /**
   * Encrypted by the SecretBox, together with the origin it was entered for (see {@link sealSecret});
   * never returned by the API.
   */
  secret: z.string().nullable(),
  /**
   * The origin (scheme, host, port) the secret was entered for, in clear beside it: what the API shows and the
   * form asks about. Absent on remotes saved before secrets were bound. The sealed copy inside `secret` is what
   * decides at use time, so editing this file cannot send a secret elsewhere.
   */
  secretOrigin: z.string().nullable().optional(),
});
export type StoredRemote = z.infer<typeof storedRemoteSchema>;

/** The saved remotes (secrets still sealed). */
export function savedRemotes(store: CalendarStore): StoredRemote[] {
  const parsed = z.array(storedRemoteSchema).safeParse(store.syncState(REMOTES_KEY) ?? []);
  return parsed.success ? parsed.data : [];
}

/** The origin (scheme, host, port) of an address; '' when it is no URL. */
export function originOf(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    return '';
  }
}

/** What a sealed secret holds since secrets are bound: the text marks it apart from an older bare secret. */
const BOUND_PREFIX = 'origin-bound-v1:';
const boundSecretSchema = z.object({ origin: z.string(), secret: z.string() });

/** Seals a secret with the origin it was entered for: it will only ever be sent there. */
function sealSecret(box: SecretBox, secret: string, origin: string): string {
  return box.encrypt(`${BOUND_PREFIX}${JSON.stringify({ origin, secret })}`);
}

/**
 * A saved remote's secret and the origin it is bound to, unsealed. A secret sealed before secrets were bound
 * counts as entered for the remote's address as saved (the next save of the list seals it bound).
 */
function unsealSecret(box: SecretBox, remote: StoredRemote & { secret: string }) {
  const text = box.decrypt(remote.secret);
  if (!text.startsWith(BOUND_PREFIX)) {
    return { origin: remote.secretOrigin ?? originOf(remote.root), secret: text };
  }
  let value: unknown = null;
  try {
    value = JSON.parse(text.slice(BOUND_PREFIX.length));
  } catch {
    // Unreadable: refused below as damaged.
  }
  const parsed = boundSecretSchema.safeParse(value);
  if (!parsed.success) throw new SecretBoxError('A saved remote secret is damaged: enter it again.');
  return parsed.data;
}

/** The origin a saved remote's secret was entered for, as saved beside it (null: no secret). */
export function boundOriginOf(remote: StoredRemote): string | null {
  if (remote.secret === null) return null;
  return remote.secretOrigin ?? originOf(remote.root);
}

/** Whether a saved remote has a secret usable at its address (one entered for another origin is not). */
export function hasUsableSecret(remote: StoredRemote): boolean {
  return remote.authType !== 'none' && boundOriginOf(remote) === originOf(remote.root);
}

/**
 * The unsealed secret of a saved remote for a request to `address`, or null: none saved, or saved for another
 * origin than `address`'s (a secret is only ever sent to the origin it was entered for).
 */
export function secretFor(remote: StoredRemote, box: SecretBox, address: string): string | null {
  if (remote.authType === 'none' || remote.secret === null) return null;
  const unsealed = unsealSecret(box, { ...remote, secret: remote.secret });
  const origin = originOf(address);
  return origin !== '' && unsealed.origin === origin ? unsealed.secret : null;
}

/** A remote as the API shows it: never the secret, only whether one is saved. */
export function presentRemote(remote: StoredRemote): RemoteView {
  return {
    id: remote.id,
    name: remote.name,
    root: remote.root,
    namespace: remote.namespace,
    auth_type: remote.authType,
    user: remote.user,
    has_secret: hasUsableSecret(remote),
  };
}

/**
 * The sealed secret a remote sent without `secret` keeps: the one saved under its id, only while its address
 * stays on the origin the secret was entered for (a new origin needs the secret typed again). One sealed
 * before secrets were bound is sealed again, bound.
 */
function keptSecret(box: SecretBox, previous: StoredRemote | undefined, origin: string) {
  if (!previous || previous.secret === null || boundOriginOf(previous) !== origin) return null;
  if (previous.secretOrigin) return { secret: previous.secret, secretOrigin: origin };
  try {
    const unsealed = unsealSecret(box, { ...previous, secret: previous.secret });
    return { secret: sealSecret(box, unsealed.secret, origin), secretOrigin: origin };
  } catch (error) {
    // Unreadable with this key: forgotten, the form asks for it again.
    if (error instanceof SecretBoxError) return null;
    throw error;
  }
}

/**
 * Replaces the list of remotes; a remote sent without `secret` keeps the one saved under its id as long as its
 * address keeps the origin (scheme, host, port) the secret was entered for; otherwise it has none.
 */
export async function saveRemotes(
  store: CalendarStore,
  box: SecretBox,
  inputs: RemoteInput[],
): Promise<StoredRemote[]> {
  const previous = new Map(savedRemotes(store).map((remote) => [remote.id, remote]));
  const remotes = inputs.map((input): StoredRemote => {
    const id = input.id ?? randomUUID();
    const origin = originOf(input.root);
    const sealed =
      input.auth_type === 'none'
        ? null
        : input.secret !== undefined
          ? { secret: sealSecret(box, input.secret, origin), secretOrigin: origin }
          : keptSecret(box, previous.get(id), origin);
    return {
      id,
      name: input.name,
      root: input.root,
      namespace: input.namespace,
      authType: input.auth_type,
      user: input.user,
      secret: sealed?.secret ?? null,
      secretOrigin: sealed?.secretOrigin ?? null,
    };
  });
  await store.mutate((tx) => tx.setSyncState(REMOTES_KEY, remotes));
  return remotes;
}

/** The saved remotes without their sealed secrets (for dumps: a secret is entered again where it is restored). */
export function remotesWithoutSecrets(value: unknown): unknown {
  const parsed = z.array(storedRemoteSchema).safeParse(value);
  return parsed.success
    ? parsed.data.map((remote) => ({ ...remote, secret: null, secretOrigin: null }))
    : value;
}

/**
 * The credentials of a saved remote, unsealed for one sync: null when it has none, or none for the origin of
 * its address (the secret sealed with another origin is never used).
 */
export function authOf(remote: StoredRemote, box: SecretBox): RemoteAuth {
  const secret = secretFor(remote, box, remote.root);
  if (secret === null) return null;
  return remote.authType === 'token' ? { token: secret } : { user: remote.user, password: secret };
}
