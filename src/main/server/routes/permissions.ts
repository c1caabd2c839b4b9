import type { TaxonomyKind } from '../../../shared/enums';
import {
  canChangePost,
  canEditPosts,
  canManageTerms,
  canReadEveryPost,
  canUploadFiles,
  hasPostCap,
  type OwnedPost,
} from '../../core/capabilities';
import type { CalendarStore } from '../../store/store';
import type { ArgSpec, ArgValues } from '../args/define';
import type { Permission } from './table';

/**
 * The permission checks endpoints declare (WordPress' `permission_callback`s), on top of the capability rules
 * of core/capabilities.ts. The dispatcher runs the one of the endpoint that answers, so a route is exactly as
 * open as its declaration says, whatever spelling of its path was used.
 */

/** Public: reads, whose handlers still hide what the caller may not see. */
export const anyone: Permission = () => true;

/**
 * Opening a browser session (`POST calendar-desk/v1/session`): open to the unsigned, as signing in must be;
 * the handler itself checks the one-time code or the credentials sent, and throttles wrong codes.
 */
export const signingIn: Permission = () => true;

/** Any signed-in user. */
export const signedIn: Permission = ({ caller }) => caller !== null;

/** The admin namespace: administrators only. */
export const administrators: Permission = ({ caller }) => caller?.role === 'administrator';

/** Those who may read every post, drafts and private ones included: administrators and editors. */
export const everyPostReaders: Permission = ({ caller }) => canReadEveryPost(caller);

/** `upload_files`: authors and up. */
export const uploaders: Permission = ({ caller }) => canUploadFiles(caller);

/** `edit_posts` of the post type: may create events, venues and organizers. */
export const postCreators: Permission = ({ caller }) => canEditPosts(caller);

/** Category or tag management (REFERENCE §5.8). */
export const termManagers =
  (taxonomy: TaxonomyKind): Permission =>
  ({ caller }) =>
    canManageTerms(caller, taxonomy);

/**
 * `edit_post` / `delete_post` on the post the path names; when there is none, the generic capability, so
 * that those who could change it reach the handler's 404.
 */
export function postChangers<Spec extends ArgSpec>(
  action: 'edit' | 'delete',
  find: (store: CalendarStore, args: ArgValues<Spec>) => OwnedPost | undefined,
): Permission<Spec> {
  return ({ caller, store, args }) => {
    const post = find(store, args);
    return post ? canChangePost(caller, post, action) : hasPostCap(caller, action);
  };
}
