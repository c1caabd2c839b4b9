import { NAMESPACE } from '../../shared/enums';

/** The addresses a response refers to, derived from the address the request came in on. */
export interface Links {
  /** `http://127.0.0.1:8787` (or with the language root's site prefix, never a trailing slash). */
  siteUrl: string;
  /** REST root, e.g. `http://127.0.0.1:8787/wp-json/` or `…/it/wp-json/`. */
  apiRoot: string;
  /** Namespace root with a trailing slash: `{apiRoot}cal/events/v1/`. */
  nsRoot: string;
  /** Host name only (no port), for `global_id`. */
  host: string;
}

export function buildLinks(origin: string, languageRoot: string | null): Links {
  const siteUrl = origin.replace(/\/+$/, '');
  const apiRoot = `${siteUrl}${languageRoot ? `/${languageRoot}` : ''}/wp-json/`;
  return { siteUrl, apiRoot, nsRoot: `${apiRoot}${NAMESPACE}/`, host: new URL(siteUrl).hostname };
}
