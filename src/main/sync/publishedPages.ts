import type { CalendarStore } from '../store/store';
import { savedRemotes } from './remotes';
import { remoteKey } from './linkState';

const WEB_PAGE = /^https?:\/\/[^\s]+$/i;

/**
 * The pages of events on the website they were published to, by local event id: the `url` a remote answered
 * for the event, where its sync link recorded one. Never the local page (subscribers cannot reach 127.0.0.1).
 * An event linked to several remotes gets the first saved remote's page.
 */
export function publishedEventPages(store: CalendarStore): Map<number, string> {
  const pages = new Map<number, string>();
  for (const remote of savedRemotes(store)) {
    const prefix = `link:${remoteKey(remote.root, remote.namespace)}|event:`;
    for (const key of store.syncKeys(prefix)) {
      const id = Number(key.slice(prefix.length));
      const url = (store.syncState(key) as { url?: unknown } | undefined)?.url;
      if (Number.isInteger(id) && !pages.has(id) && typeof url === 'string' && WEB_PAGE.test(url))
        pages.set(id, url);
    }
  }
  return pages;
}
