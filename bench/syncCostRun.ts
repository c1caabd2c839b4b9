// The in-process side of bench/syncCost.mjs: the laptop's data folder opened as the app opens it, its sync with
// another Calendar Desk run as the app runs it, and a few local edits (loaded once through bench/lib/loadTs.mjs).
import { CalendarStore } from '../src/main/store/store';
import { preloadHtmlModules } from '../src/main/core/html';
import { ensureAdminAccess, folderOwner } from '../src/main/core/users';
import { changeEvent } from '../src/main/core/events';
import { runSync, type SyncReport } from '../src/main/sync/sync';
import type { EventInput } from '../src/main/core/eventRecord';

export async function openCalendar(dataDir: string): Promise<CalendarStore> {
  const store = await CalendarStore.open({
    dataDir,
    initialSettings: { siteName: 'Bench', siteDescription: '', timezone: 'UTC', postsPerPage: 10 },
  });
  await ensureAdminAccess(store, () => new Date());
  // As the app's server does once it has answered (preloadWritePath): a sync there pulls into a process that has
  // the HTML sanitizer loaded. (A `calendar-desk sync` process loads it, some 45 ms, when it first pulls a text.)
  await preloadHtmlModules();
  return store;
}

export function syncWithHub(store: CalendarStore, root: string, token: string): Promise<SyncReport> {
  return runSync({
    store,
    caller: folderOwner(store),
    remote: { root, namespace: 'cal/events/v1', auth: { token } },
    policy: 'ask',
    // The seed has venues and organizers of one name (as real calendars do): kept apart, as a user would choose.
    sameNames: 'keep-apart',
  });
}

/** Renames `count` single events (not in a series) of the laptop, as a person would one by one. */
export async function editLocally(store: CalendarStore, count: number, mark: string): Promise<number[]> {
  store.readAllEvents();
  const singles = [...store.events.values()].filter(
    (event) => event.status === 'publish' && event.parentId === 0 && !event.recurrence,
  );
  const edited: number[] = [];
  for (const event of singles.slice(0, count)) {
    await changeEvent(event.id, { title: `${event.title} ${mark}` } as EventInput, {
      store,
      caller: folderOwner(store),
      now: new Date(),
    });
    edited.push(event.id);
  }
  return edited;
}
