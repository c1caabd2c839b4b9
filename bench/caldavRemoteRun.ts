// The in-process side of bench/caldavRemote.mjs: a data folder opened as the app opens it, and a sync with a
// CalDAV calendar run as the CLI runs it (loaded once through bench/lib/loadTs.mjs, imports static).
import { CalendarStore } from '../src/main/store/store';
import { ensureAdminAccess, folderOwner } from '../src/main/core/users';
import { runAnySync } from '../src/main/caldavSync/anyRemote';
import type { SyncReport } from '../src/main/sync/sync';

export async function openCalendar(dataDir: string): Promise<CalendarStore> {
  const store = await CalendarStore.open({
    dataDir,
    initialSettings: { siteName: 'Bench', siteDescription: '', timezone: 'UTC', postsPerPage: 10 },
  });
  await ensureAdminAccess(store, () => new Date());
  return store;
}

export function syncWithCalendar(
  store: CalendarStore,
  calendarUrl: string,
  auth: { user: string; password: string },
): Promise<SyncReport> {
  return runAnySync({
    store,
    caller: folderOwner(store),
    remote: { root: calendarUrl, namespace: 'caldav', auth },
    policy: 'ask',
  });
}
