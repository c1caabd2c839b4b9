import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { CalendarStore } from '../store/store';
import type { RemoteAuth } from './remoteClient';
import type { SecretBox } from './secretBox';
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
  /** Encrypted by the SecretBox; never returned by the API. */
  secret: z.string().nullable(),
});
export type StoredRemote = z.infer<typeof storedRemoteSchema>;

/** The saved remotes (secrets still sealed). */
export function savedRemotes(store: CalendarStore): StoredRemote[] {
  const parsed = z.array(storedRemoteSchema).safeParse(store.syncState(REMOTES_KEY) ?? []);
  return parsed.success ? parsed.data : [];
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
    has_secret: remote.secret !== null,
  };
}

/** Replaces the list of remotes; a remote sent without `secret` keeps the one saved under its id. */
export async function saveRemotes(
  store: CalendarStore,
  box: SecretBox,
  inputs: RemoteInput[],
): Promise<StoredRemote[]> {
  const previous = new Map(savedRemotes(store).map((remote) => [remote.id, remote]));
  const remotes = inputs.map((input): StoredRemote => {
    const id = input.id ?? randomUUID();
    const secret =
      input.secret !== undefined ? box.encrypt(input.secret) : (previous.get(id)?.secret ?? null);
    return {
      id,
      name: input.name,
      root: input.root,
      namespace: input.namespace,
      authType: input.auth_type,
      user: input.user,
      secret: input.auth_type === 'none' ? null : secret,
    };
  });
  await store.mutate((tx) => tx.setSyncState(REMOTES_KEY, remotes));
  return remotes;
}

/** The saved remotes without their sealed secrets (for dumps: a secret is entered again where it is restored). */
export function remotesWithoutSecrets(value: unknown): unknown {
  const parsed = z.array(storedRemoteSchema).safeParse(value);
  return parsed.success ? parsed.data.map((remote) => ({ ...remote, secret: null })) : value;
}

/** The credentials of a saved remote, unsealed for one sync. */
export function authOf(remote: StoredRemote, box: SecretBox): RemoteAuth {
  if (remote.authType === 'none' || remote.secret === null) return null;
  const secret = box.decrypt(remote.secret);
  return remote.authType === 'token' ? { token: secret } : { user: remote.user, password: secret };
}
