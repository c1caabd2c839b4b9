import type { RemoteInput, RemoteView } from '../../../../shared/schemas/sync';

/** A saved remote in the API's input shape; its secret is not sent, so the saved one stays. */
export const asInput = (remote: RemoteView): RemoteInput => ({
  id: remote.id,
  name: remote.name,
  root: remote.root,
  namespace: remote.namespace,
  auth_type: remote.auth_type,
  user: remote.user,
});

/**
 * The whole list to save (the API replaces it) with `input` in it: in the place of the remote `editing`,
 * or added at the end.
 */
export function remotesWith(
  remotes: RemoteView[],
  input: RemoteInput,
  editing: RemoteView | null,
): RemoteInput[] {
  if (editing) return remotes.map((remote) => (remote.id === editing.id ? input : asInput(remote)));
  return [...remotes.map(asInput), input];
}

/** The whole list to save without the remote `id`. */
export function remotesWithout(remotes: RemoteView[], id: string): RemoteInput[] {
  return remotes.filter((remote) => remote.id !== id).map(asInput);
}

/** The origin (scheme, host, port) of an address as typed; null while it is not an address yet. */
export function originOf(address: string): string | null {
  try {
    const url = new URL(address.trim());
    return /^https?:$/.test(url.protocol) ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Whether the site edited moves to another origin: its saved password is then forgotten (it is only ever sent
 * to the site it was entered for), so the form asks for it again.
 */
export function movesToAnotherSite(editing: RemoteView | null, address: string): boolean {
  if (!editing || editing.auth_type === 'none') return false;
  const origin = originOf(address);
  return origin !== null && origin !== originOf(editing.root);
}
