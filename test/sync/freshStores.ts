import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CalendarStore } from '../../src/main/store/store';
import { ensureAdminAccess } from '../../src/main/core/users';

/** Empty calendars in their own data folders, initialised as the CLI does (with its admin); `closeAll` removes them. */
export function freshStores() {
  const folders: string[] = [];
  const stores: CalendarStore[] = [];
  return {
    async open(): Promise<CalendarStore> {
      const folder = await mkdtemp(join(tmpdir(), 'calendar-desk-import-'));
      folders.push(folder);
      const store = await CalendarStore.open({
        dataDir: folder,
        initialSettings: { siteName: 'x', siteDescription: '', timezone: 'UTC', postsPerPage: 10 },
      });
      stores.push(store);
      await ensureAdminAccess(store, () => new Date());
      return store;
    },
    async closeAll(): Promise<void> {
      for (const store of stores.splice(0)) await store.close();
      for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
    },
  };
}
