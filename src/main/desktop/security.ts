import type { Session, WebContents } from 'electron';
import { isAllowedExternalUrl } from '../../shared/bridge';
import { rendererCsp } from '../server/rendererHeaders';

/** Whether a URL belongs to the engine (same scheme, host and port). */
export function isEngineUrl(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** The only web permissions granted, and only to the engine's pages. */
const ENGINE_PERMISSIONS = new Set(['clipboard-sanitized-write']);

/** The desktop window's policy: the renderer's, with the API calls pinned to the engine origin. */
export const desktopCsp = (origin: string) => rendererCsp(origin);

/**
 * Session-wide rules of the desktop window: every response of the engine carries the desktop CSP (added as
 * one more policy, so it never loosens a stricter one the server sent, like the record pages'), and no web
 * permission (camera, notifications, geolocation…) is ever granted but writing to the clipboard, for the engine's
 * own pages (the Settings screen copies the API token and a curl example).
 */
export function installSecurity(session: Session, origin: string): void {
  const policy = desktopCsp(origin);
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!isEngineUrl(details.url, origin)) return callback({});
    const headers = { ...details.responseHeaders };
    const name =
      Object.keys(headers).find((key) => key.toLowerCase() === 'content-security-policy') ??
      'Content-Security-Policy';
    headers[name] = [...(headers[name] ?? []), policy];
    callback({ responseHeaders: headers });
  });
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(ENGINE_PERMISSIONS.has(permission) && isEngineUrl(details.requestingUrl, origin)),
  );
  session.setPermissionCheckHandler(
    (_contents, permission, requestingOrigin) =>
      ENGINE_PERMISSIONS.has(permission) && requestingOrigin === origin,
  );
}

/**
 * Keeps a window on the engine: new windows are never opened (http(s) and mailto links go to the system
 * browser instead), navigations and redirects elsewhere are refused the same way, and <webview> is refused.
 */
export function guardWebContents(
  contents: WebContents,
  origin: string,
  openExternal: (url: string) => Promise<void>,
): void {
  const sendOut = (url: string) => {
    if (isAllowedExternalUrl(url)) openExternal(url).catch(() => undefined);
  };
  contents.setWindowOpenHandler(({ url }) => {
    sendOut(url);
    return { action: 'deny' };
  });
  // The target is read from the event's details (the listener's url argument is deprecated).
  const keepOnEngine = (event: { url: string; preventDefault(): void }) => {
    if (isEngineUrl(event.url, origin)) return;
    event.preventDefault();
    sendOut(event.url);
  };
  contents.on('will-navigate', keepOnEngine);
  contents.on('will-redirect', keepOnEngine);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
