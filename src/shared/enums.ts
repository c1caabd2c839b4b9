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

/** REST namespaces, each named once here (WordPress routes are `/wp-json/{namespace}/…`). */
/** The calendar API Calendar Desk serves: The Events Calendar's v1 API under its own name. */
export const NAMESPACE = 'cal/events/v1';
/** The Events Calendar's own namespace, on a WordPress site (a sync remote). */
export const TRIBE_NAMESPACE = 'tribe/events/v1';
/** Calendar Desk's admin namespace: settings, users, sync, media; what the CLI does to a data folder it owns. */
export const ADMIN_NAMESPACE = 'calendar-desk/v1';
/** WordPress core's own namespace (its term, media, user and post-type routes). */
export const WP_V2_NAMESPACE = 'wp/v2';
