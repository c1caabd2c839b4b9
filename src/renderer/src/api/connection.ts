import type { ApiConnection, CalendarDeskBridge } from '../../../shared/bridge';

declare global {
  interface Window {
    /** Present in the desktop app (preload bridge); absent in a plain browser. */
    calendarDesk?: CalendarDeskBridge;
  }
}

/** Where versions before the session cookie kept the permanent token: removed wherever it is still found. */
const LEGACY_TOKEN_KEY = 'calendar-desk.token';

/** The desktop bridge when the renderer runs inside the app. */
export const desktopBridge = (): CalendarDeskBridge | undefined => window.calendarDesk;

/**
 * Where the API is and how to call it: the desktop bridge's address and token (kept in memory only), else (a
 * browser on `serve`) this origin, signed in by the HttpOnly session cookie the sign-in screen opened. The
 * page never holds the permanent token in a browser.
 */
export async function savedConnection(): Promise<ApiConnection> {
  const bridge = desktopBridge();
  if (bridge) return bridge.connection();
  localStorage.removeItem(LEGACY_TOKEN_KEY);
  return browserConnection();
}

/** The API of the origin that served this page, authenticated by the browser's session cookie. */
export function browserConnection(): ApiConnection {
  return { apiRoot: `${location.origin}/wp-json/` };
}
