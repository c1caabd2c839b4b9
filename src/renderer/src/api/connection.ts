import type { ApiConnection, CalendarDeskBridge } from '../../../shared/bridge';

declare global {
  interface Window {
    /** Present in the desktop app (preload bridge); absent in a plain browser. */
    calendarDesk?: CalendarDeskBridge;
  }
}

const TOKEN_KEY = 'calendar-desk.token';

/** The desktop bridge when the renderer runs inside the app. */
export const desktopBridge = (): CalendarDeskBridge | undefined => window.calendarDesk;

/**
 * Where the API is and which token to use: from the desktop bridge, else (a browser on `serve`) the token
 * the user signed in with, kept in this browser's local storage for this origin only.
 */
export async function savedConnection(): Promise<ApiConnection | null> {
  const bridge = desktopBridge();
  if (bridge) return bridge.connection();
  const token = localStorage.getItem(TOKEN_KEY);
  return token ? browserConnection(token) : null;
}

export function browserConnection(token: string): ApiConnection {
  return { apiRoot: `${location.origin}/wp-json/`, token };
}

export function rememberToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function forgetToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}
