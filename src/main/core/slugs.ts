import slugifyText from '@sindresorhus/slugify';
import { toPlainText } from './html';

/** WordPress keeps post names within the 200-character `post_name` column. */
const MAX_SLUG_LENGTH = 200;

/** Characters WordPress deletes outright (they do not become separators): `Q&A` → `qa`, `AC/DC` → `acdc`. */
const DELETED = '&\'"!#$%()*+,/:;<=>?@[\\]^`{|}~‘’‚“”„«»‹›¡¿©®™…';

/** Where WordPress `remove_accents` (default locale) differs from the transliteration defaults. */
const REPLACED: [string, string][] = [
  ['ä', 'a'], ['ö', 'o'], ['ü', 'u'], ['Ä', 'A'], ['Ö', 'O'], ['Ü', 'U'], ['×', 'x'], ['🦄', ''], ['♥', ''],
]; // prettier-ignore

const OPTIONS = {
  decamelize: false,
  preserveCharacters: ['_'],
  customReplacements: [...DELETED].map((c): [string, string] => [c, '']).concat(REPLACED),
};

/**
 * For plain ASCII text the replacements above come down to deleting DELETED's ASCII characters: doing that in
 * one pass spares slugify building and applying its ~60 replacements per call (a third of a create's slug cost).
 */
const ASCII_ONLY = /^[^\u0080-\uffff]*$/;
const DELETED_ASCII = new RegExp(
  `[${[...DELETED]
    .filter((c) => c < '\x80')
    .join('')
    .replace(/[\\\]^-]/g, '\\$&')}]`,
  'g',
);
const ASCII_OPTIONS = { decamelize: false, preserveCharacters: ['_'] };

/** WordPress `sanitize_title` for a title or requested slug (`Café Müller` → `cafe-muller`); may return ''. */
export function slugify(title: string): string {
  const text = toPlainText(title).replace(/&#?[a-z0-9]+;/gi, '');
  const slug = ASCII_ONLY.test(text)
    ? slugifyText(text.replace(DELETED_ASCII, ''), ASCII_OPTIONS)
    : slugifyText(text, OPTIONS);
  return trimSlug(slug.slice(0, MAX_SLUG_LENGTH));
}

/** WordPress `wp_unique_post_slug`: `base` (or `fallback` when empty) with -2, -3, … appended until not taken. */
export function uniqueSlug(base: string, taken: (slug: string) => boolean, fallback: string): string {
  return uniqueSlugFrom(base, taken, fallback, 2).slug;
}

/**
 * `uniqueSlug`, probing suffixes from `from` on (callers that remember where the last probe ended avoid
 * re-probing -2 … -n for every new event of a recurring title). Returns the suffix used (0 for none).
 */
export function uniqueSlugFrom(
  base: string,
  taken: (slug: string) => boolean,
  fallback: string,
  from: number,
): { slug: string; suffix: number } {
  const slug = base || fallback;
  if (!slug) throw new Error('uniqueSlug needs a non-empty base or fallback');
  if (!taken(slug)) return { slug, suffix: 0 };
  for (let n = Math.max(2, from); ; n++) {
    const suffix = `-${n}`;
    const candidate = trimSlug(slug.slice(0, MAX_SLUG_LENGTH - suffix.length)) + suffix;
    if (!taken(candidate)) return { slug: candidate, suffix: n };
  }
}

function trimSlug(slug: string): string {
  return slug.replace(/^-+|-+$/g, '');
}
