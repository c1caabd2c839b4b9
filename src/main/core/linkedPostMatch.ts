import { decodeHtmlEntities } from './html';

/*
 * When two venues (or two organizers) are the same place (or person) entered twice: the one rule imports and
 * the two-way sync share (issue 15 item 3, issue 14). Case, accents, entities, typographic quotes and spacing
 * do not count ("Teatro Comùnale" is "TEATRO COMUNALE"); a venue is its name and address, an organizer its
 * name and email.
 */

/** A name or address as people read it: without case, accents, entities, typographic quotes or extra spaces. */
export function foldedForMatch(value: unknown): string {
  return decodeHtmlEntities(typeof value === 'string' ? value : '')
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/[‘’′`]/g, "'")
    .replace(/[“”″]/g, '"')
    .replace(/[–—]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** What identifies a venue or organizer: its name, and its address (venue) or email (organizer). */
export interface LinkedPostIdentity {
  kind: 'venue' | 'organizer';
  name: string;
  /** The venue's address, the organizer's email ('' when unknown). */
  detail: string;
}

/** The identity of a stored venue or organizer. */
export const identityOf = (
  post: { kind: 'venue'; name: string; address: string } | { kind: 'organizer'; name: string; email: string },
): LinkedPostIdentity => ({
  kind: post.kind,
  name: post.name,
  detail: post.kind === 'venue' ? post.address : post.email,
});

/** The key two records share exactly when they are the same (name and address/email both equal); null without a name. */
export function linkedPostKey(identity: LinkedPostIdentity): string | null {
  const name = foldedForMatch(identity.name);
  if (!name) return null;
  return `${identity.kind}:${name}|${foldedForMatch(identity.detail)}`;
}

/**
 * The record among `candidates` that `wanted` names (an import's row, say): the same name and address (or email);
 * failing that, the same name where one of the two has no address (nothing says they differ). Two places of
 * one name at two known addresses stay two. Null when none is the same.
 */
export function findSameLinkedPost<T extends LinkedPostIdentity>(
  candidates: Iterable<T>,
  wanted: LinkedPostIdentity,
): T | null {
  const key = linkedPostKey(wanted);
  if (!key) return null;
  const name = foldedForMatch(wanted.name);
  const detail = foldedForMatch(wanted.detail);
  let unknownDetail: T | null = null;
  for (const candidate of candidates) {
    if (candidate.kind !== wanted.kind) continue;
    if (linkedPostKey(candidate) === key) return candidate;
    const other = foldedForMatch(candidate.detail);
    if (!unknownDetail && (detail === '' || other === '') && foldedForMatch(candidate.name) === name) {
      unknownDetail = candidate;
    }
  }
  return unknownDetail;
}
