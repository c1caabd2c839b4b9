import type Koa from 'koa';
import type { LanguageRoot } from '../../shared/enums';
import type { MaybeCaller } from '../core/capabilities';
import type { Links } from './links';

/** What the app's middleware keep in `ctx.state` for the rest of a request (`new Koa<ApiState>()`). */
export interface ApiState {
  /** The language root the request came in under (`/it/wp-json/…`), null for the plain `/wp-json/`. */
  languageRoot: LanguageRoot | null;
  /** Absolute URLs for that root. Both are set before any route or API header runs (app.ts). */
  links: Links;
  /**
   * The caller, once `callerIdentifier` (middleware/auth.ts) has identified it: null is anonymous,
   * undefined not identified yet.
   */
  caller?: MaybeCaller;
}

/** The context every middleware and handler of the app sees. */
export type ApiContext = Koa.ParameterizedContext<ApiState>;
