import type { MenuItemConstructorOptions } from 'electron';

/** The renderer's routes (vue-router, hash history) the menu opens. */
export type AppRoute =
  '/calendar' | '/events/new' | '/venues' | '/organizers' | '/categories' | '/tags' | '/sync' | '/settings';

export interface MenuActions {
  isMac: boolean;
  /** Developer tools only in a development build. */
  isPackaged: boolean;
  navigate(route: AppRoute): void;
  openDataFolder(): void;
  openReadme(): void;
  openApiInBrowser(): void;
}

/** The application menu: navigation by URL hash, standard roles for editing and windows. */
export function menuTemplate(actions: MenuActions): MenuItemConstructorOptions[] {
  const go = (label: string, route: AppRoute, accelerator?: string): MenuItemConstructorOptions => ({
    label,
    accelerator,
    click: () => actions.navigate(route),
  });
  const template: MenuItemConstructorOptions[] = [
    {
      label: 'File',
      submenu: [
        go('New Event', '/events/new', 'CmdOrCtrl+N'),
        { type: 'separator' },
        go('Calendar', '/calendar', 'CmdOrCtrl+1'),
        go('Venues', '/venues', 'CmdOrCtrl+2'),
        go('Organizers', '/organizers', 'CmdOrCtrl+3'),
        go('Categories', '/categories', 'CmdOrCtrl+4'),
        go('Tags', '/tags', 'CmdOrCtrl+5'),
        go('Publish…', '/sync', 'CmdOrCtrl+Shift+P'),
        { type: 'separator' },
        go('Settings', '/settings', 'CmdOrCtrl+,'),
        { label: 'Open Data Folder', click: () => actions.openDataFolder() },
        ...(actions.isMac ? [] : [{ type: 'separator' } as const, { role: 'quit' } as const]),
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(actions.isPackaged ? [] : [{ role: 'toggleDevTools' } as const]),
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'Read Me', click: () => actions.openReadme() },
        { label: 'Browse the API in Your Browser', click: () => actions.openApiInBrowser() },
      ],
    },
  ];
  return actions.isMac ? [{ role: 'appMenu' }, ...template] : template;
}
