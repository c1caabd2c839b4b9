/**
 * The Content-Security-Policy of the built renderer. Scripts only from the app itself, API calls only to
 * `connectSrc` (the server that served the page), no plugins, frames, foreign forms or <base> tricks; images
 * may come from anywhere on the web (event and venue pictures). The desktop shell enforces the same policy
 * with its engine origin as `connectSrc` (src/main/desktop/security.ts).
 */
export function rendererCsp(connectSrc = "'self'"): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' http: https: data: blob:",
    "font-src 'self' data:",
    `connect-src ${connectSrc}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * Headers of every file of the built renderer: its CSP, no framing by other pages (X-Frame-Options for browsers
 * without CSP's frame-ancestors), no MIME sniffing, no Referer leaking the sign-in link.
 */
export const RENDERER_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': rendererCsp(),
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * How long browsers may keep a file of the built renderer: files under assets/ carry a content hash in their
 * name (a new build gives new names), so they never change; index.html and the icon are checked every time.
 */
export function rendererCacheControl(path: string): string {
  return path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}
