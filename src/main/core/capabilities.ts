import type { PostKind, PostStatus, Role, TaxonomyKind } from '../../shared/enums';

/** Who is calling: an authenticated user, or nobody. */
export interface Caller {
  userId: number;
  login: string;
  role: Role;
}
export type MaybeCaller = Caller | null;

/** Capabilities per post type (REFERENCE §8.2), the same for events, venues and organizers. */
type PostCap =
  | 'read'
  | 'read_private'
  | 'edit'
  | 'edit_others'
  | 'edit_private'
  | 'edit_published'
  | 'delete'
  | 'delete_others'
  | 'delete_private'
  | 'delete_published'
  | 'publish';

const EVERYTHING: PostCap[] = [
  'read',
  'read_private',
  'edit',
  'edit_others',
  'edit_private',
  'edit_published',
  'delete',
  'delete_others',
  'delete_private',
  'delete_published',
  'publish',
];

const POST_CAPS: Record<Role, ReadonlySet<PostCap>> = {
  administrator: new Set(EVERYTHING),
  editor: new Set(EVERYTHING),
  author: new Set(['read', 'edit', 'edit_published', 'delete', 'delete_published', 'publish']),
  contributor: new Set(['read', 'edit', 'delete']),
  subscriber: new Set(['read']),
};

export function hasPostCap(caller: MaybeCaller, cap: PostCap): boolean {
  return caller !== null && POST_CAPS[caller.role].has(cap);
}

/** `edit_tribe_events` & co: may create posts and list non-public statuses. */
export const canEditPosts = (caller: MaybeCaller) => hasPostCap(caller, 'edit');

/** May publish (the status scale-back uses the event post type's cap for all three kinds). */
export const canPublish = (caller: MaybeCaller) => hasPostCap(caller, 'publish');

/** `upload_files`: may attach images by URL (authors and up). */
export const canUploadFiles = (caller: MaybeCaller) =>
  caller !== null && ['administrator', 'editor', 'author'].includes(caller.role);

export interface OwnedPost {
  authorId: number;
  status: PostStatus;
}

const isPublished = (status: PostStatus) => status === 'publish' || status === 'future';

/** WordPress' `edit_post` / `delete_post` meta-capability mapping (REFERENCE §8.3). */
export function canChangePost(caller: MaybeCaller, post: OwnedPost, action: 'edit' | 'delete'): boolean {
  if (!caller) return false;
  const caps = POST_CAPS[caller.role];
  const own = post.authorId === caller.userId;
  if (!caps.has(action)) return false;
  if (!own && !caps.has(`${action}_others`)) return false;
  if (isPublished(post.status) && !caps.has(`${action}_published`)) return false;
  if (post.status === 'private' && !own && !caps.has(`${action}_private`)) return false;
  return true;
}

/** `read_post`: published posts are public; others need ownership or the others/private caps. */
export function canReadPost(caller: MaybeCaller, post: OwnedPost): boolean {
  if (post.status === 'publish') return true;
  if (!caller) return false;
  const caps = POST_CAPS[caller.role];
  if (post.authorId === caller.userId) return caps.has('read');
  if (post.status === 'private') return caps.has('read_private');
  return caps.has('edit_others');
}

/**
 * May read every post whatever its author and status (`read_private_posts` and `edit_others_posts`):
 * administrators and editors. The change feed needs it, since it shows every record as it changes.
 */
export const canReadEveryPost = (caller: MaybeCaller) =>
  hasPostCap(caller, 'read_private') && hasPostCap(caller, 'edit_others');

/** Term management: categories need `publish_tribe_events`, tags `manage_categories` (REFERENCE §5.8). */
export function canManageTerms(caller: MaybeCaller, taxonomy: TaxonomyKind): boolean {
  if (!caller || !canEditPosts(caller)) return false;
  if (taxonomy === 'category') return canPublish(caller);
  return caller.role === 'administrator' || caller.role === 'editor';
}

/**
 * Status scale-back (REFERENCE §5.1): publishers keep what they ask for (default `publish`); others get
 * `pending` instead of `publish`/`future`, and `draft` by default.
 */
export function scaleBackStatus(caller: MaybeCaller, requested: PostStatus | undefined): PostStatus {
  if (canPublish(caller)) return requested ?? 'publish';
  if (requested === undefined) return 'draft';
  if (requested === 'publish' || requested === 'future') return 'pending';
  return requested;
}

export type { PostKind };
