/**
 * Redirects of a remote request, followed by hand so that credentials never leave the remote's origin: fetch's
 * own following decides by itself which headers a redirect keeps.
 */

/** Most redirects followed for one request (fetch's own limit is 20). */
const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** What one request sends, apart from the credentials. */
export interface RedirectableRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  signal?: AbortSignal;
}

/**
 * `fetch`, following redirects itself: each hop carries `credentials` (the Authorization header) only when its
 * origin is `credentialOrigin`, so a redirect to another host never receives them (a hop back to that origin
 * gets them again). As browsers do, a 303 (and a 301 or 302 answering a POST) is followed with a GET without
 * the body; a 307 or 308 repeats the request. Too many redirects throw, as fetch does.
 */
export async function fetchKeepingCredentials(
  url: string,
  request: RedirectableRequest,
  credentials: Record<string, string>,
  credentialOrigin: string,
): Promise<Response> {
  let hop = new URL(url);
  let { method, body } = request;
  let headers = request.headers;
  for (let redirects = 0; ; redirects++) {
    const response = await fetch(hop, {
      method,
      headers: { ...headers, ...(hop.origin === credentialOrigin ? credentials : {}) },
      body,
      signal: request.signal,
      redirect: 'manual',
    });
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
    await response.body?.cancel();
    if (redirects >= MAX_REDIRECTS) {
      throw new TypeError(`${url} redirected more than ${MAX_REDIRECTS} times`);
    }
    hop = new URL(location, hop);
    // Only another web address is followed: fetch would read a data: address as the answer itself.
    if (hop.protocol !== 'http:' && hop.protocol !== 'https:')
      throw new TypeError(`${url} redirected to a ${hop.protocol} address`);
    if (hop.username || hop.password)
      throw new TypeError(`${url} redirected to an address with a user name or password`);
    if (
      response.status === 303 ||
      ((response.status === 301 || response.status === 302) && method === 'POST')
    ) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
      headers = Object.fromEntries(
        Object.entries(headers).filter(([name]) => !/^content-(type|disposition)$/i.test(name)),
      );
    }
  }
}
