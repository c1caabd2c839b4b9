import { describe, expect, it } from 'vitest';
import type { RemoteInput, RemoteView } from '../../src/shared/schemas/sync';
import {
  movesToAnotherSite,
  remotesWith,
  remotesWithout,
} from '../../src/renderer/src/components/sync/remotes';

/** The Publish screen saves the whole list of sites (the API replaces it): what it sends for each change. */
const site = (id: string, name: string): RemoteView => ({
  id,
  name,
  root: `https://${id}.example.org/wp-json/`,
  namespace: 'tribe/events/v1',
  auth_type: 'password',
  user: 'editor',
  has_secret: true,
});
const saved = [site('a', 'Parish'), site('b', 'Choir')];

describe('the list of sites saved', () => {
  it('adds a new site at the end, the others without secrets (the saved ones stay)', () => {
    const added: RemoteInput = {
      name: 'Festival',
      root: 'https://c.example.org/wp-json/',
      namespace: 'cal/events/v1',
      auth_type: 'none',
      user: '',
    };
    const list = remotesWith(saved, added, null);
    expect(list).toHaveLength(3);
    expect(list[2]).toBe(added);
    expect(list[0]).toEqual({
      id: 'a',
      name: 'Parish',
      root: 'https://a.example.org/wp-json/',
      namespace: 'tribe/events/v1',
      auth_type: 'password',
      user: 'editor',
    });
    expect(list.some((remote) => 'has_secret' in remote || 'secret' in remote)).toBe(false);
  });

  it('puts an edited site in its own place, with the secret typed', () => {
    const edited: RemoteInput = {
      id: 'b',
      name: 'Choir (new)',
      root: 'https://b.example.org/wp-json/',
      namespace: 'tribe/events/v1',
      auth_type: 'password',
      user: 'editor',
      secret: 'app password',
    };
    const list = remotesWith(saved, edited, saved[1]);
    expect(list.map((remote) => remote.name)).toEqual(['Parish', 'Choir (new)']);
    expect(list[1].secret).toBe('app password');
  });

  it('leaves a removed site out and keeps the others in order', () => {
    expect(remotesWithout(saved, 'a').map((remote) => remote.id)).toEqual(['b']);
    expect(remotesWithout(saved, 'z').map((remote) => remote.id)).toEqual(['a', 'b']);
  });
});

describe('the password asked again', () => {
  it('when the address moves to another site (scheme, host or port), not for another path there', () => {
    const parish = saved[0];
    expect(movesToAnotherSite(parish, 'https://a.example.org')).toBe(false);
    expect(movesToAnotherSite(parish, ' https://a.example.org/wp-json ')).toBe(false);
    expect(movesToAnotherSite(parish, 'https://evil.example.net/wp-json/')).toBe(true);
    expect(movesToAnotherSite(parish, 'http://a.example.org/wp-json/')).toBe(true);
    expect(movesToAnotherSite(parish, 'https://a.example.org:8443/')).toBe(true);
    // Half typed, a new site, or one without a password: nothing to ask again.
    expect(movesToAnotherSite(parish, 'https://')).toBe(false);
    expect(movesToAnotherSite(null, 'https://evil.example.net/')).toBe(false);
    expect(movesToAnotherSite({ ...parish, auth_type: 'none' }, 'https://evil.example.net/')).toBe(false);
  });
});
