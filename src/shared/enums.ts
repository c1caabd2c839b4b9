/** Languages a record can carry (`ml_language`), in the order of the seed. */
export const LANGUAGES = ['cs', 'en', 'fr', 'de', 'it', 'pl', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Language roots the API is served under besides the plain `/wp-json/`. */
export const LANGUAGE_ROOTS = ['en', 'it', 'pl'] as const;
export type LanguageRoot = (typeof LANGUAGE_ROOTS)[number];

/** WordPress post statuses a post can be stored with (`get_post_stati()` of a plain site). */
export const POST_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** Statuses WP's `any` expands to for editors: everything not excluded from search. */
export const ANY_STATUSES: readonly PostStatus[] = ['publish', 'future', 'draft', 'pending', 'private'];

export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

export const POST_KINDS = ['event', 'venue', 'organizer'] as const;
export type PostKind = (typeof POST_KINDS)[number];

export const TAXONOMIES = ['category', 'tag'] as const;
export type TaxonomyKind = (typeof TAXONOMIES)[number];

/** WordPress taxonomy names as they appear on the wire. */
export const TAXONOMY_WIRE_NAME: Record<TaxonomyKind, string> = {
  category: 'tribe_events_cat',
  tag: 'post_tag',
};

export const NAMESPACE = 'cal/events/v1';
