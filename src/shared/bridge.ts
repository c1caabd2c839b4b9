/**
 * What the desktop preload exposes to the renderer as `window.calendarDesk` (contextBridge).
 * Deliberately small: the renderer talks to the engine over HTTP like any local tool; the bridge only
 * tells it where the API is and with which token, plus two harmless conveniences.
 * In a plain browser (`calendar-desk serve`) the bridge is absent and the renderer signs in with a one-time
 * code, exchanged for a session cookie.
 */
export interface ApiConnection {
  /** REST root with a trailing slash, e.g. `http://127.0.0.1:53124/wp-json/`. */
  apiRoot: string;
  /**
   * A bearer token (`cdt_…`) of the desktop user (administrator), handed over the bridge and kept in memory.
   * Absent in a browser: there the HttpOnly session cookie signs the requests in.
   */
  token?: string;
}

export interface CalendarDeskBridge {
  /** Where the local API listens and the token to call it with. */
  connection(): Promise<ApiConnection>;
  /** The application version (package.json). */
  readonly appVersion: string;
  /** Opens an http(s) or mailto URL in the system browser; false when the URL is refused. */
  openExternal(url: string): Promise<boolean>;
}

/** The URL schemes `openExternal` accepts; anything else (file:, javascript:, custom handlers) is refused. */
export const EXTERNAL_URL_PROTOCOLS = ['http:', 'https:', 'mailto:'] as const;

export function isAllowedExternalUrl(url: string): boolean {
  try {
    return (EXTERNAL_URL_PROTOCOLS as readonly string[]).includes(new URL(url).protocol);
  } catch {
    return false;
  }
}
