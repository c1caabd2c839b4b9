/**
 * Venues (or organizers) of one name that a remote would make one record (issue 28 item 2): a remote's
 * create reuses a venue or organizer it finds by title (a Calendar Desk by name and description, REFERENCE
 * §5.7; The Events Calendar by the fields sent, the title alone when the others are empty), so two places
 * called "Riverside Studio Berlin" could both be linked to one remote record, and each sync would then copy
 * its address over the other. They are found before anything is sent; the user merges them here, or keeps them apart with a
 * distinguishing name (given here and on the site, so both calendars say the same).
 */
import type { CalendarStore } from '../store/store';
import type { Caller } from '../core/capabilities';
import type { StoredOrganizer, StoredVenue } from '../store/schema';
import { foldedForMatch } from '../core/linkedPostMatch';
import { changeLinkedPost } from '../core/linkedPosts';
import { mergeLinkedPosts } from '../core/linkedPostMerge';
import type { LinkState } from './linkState';
import { linkKey } from './model';
import type { SameNameChoice, SameNameGroup } from '../../shared/schemas/sync';

export type { SameNameChoice, SameNameGroup } from '../../shared/schemas/sync';

type LinkedPost = StoredVenue | StoredOrganizer;

/** What tells one from the others in its name: a venue's city or address, an organizer's email or phone. */
function distinction(post: LinkedPost): string {
  const parts = post.kind === 'venue' ? [post.city, post.address] : [post.email, post.phone];
  return parts.map((part) => part.trim()).find(Boolean) ?? '';
}

/**
 * The groups of venues and of organizers of one name (as the remote compares titles: case and accents do
 * not count) not yet linked each to a remote record of its own: some are still to be created, or several are
 * linked to one remote record (left so by an earlier version). The first of a group keeps its name: a linked
 * one, else the oldest.
 */
export function sameNameGroups(store: CalendarStore, links: LinkState): SameNameGroup[] {
  const groups: SameNameGroup[] = [];
  for (const kind of ['venue', 'organizer'] as const) {
    const posts: LinkedPost[] = [...(kind === 'venue' ? store.venues : store.organizers).values()];
    const byName = new Map<string, LinkedPost[]>();
    for (const post of posts) {
      const name = foldedForMatch(post.name);
      if (post.status === 'trash' || name === '') continue;
      byName.set(name, [...(byName.get(name) ?? []), post]);
    }
    const taken = new Set(posts.map((post) => foldedForMatch(post.name)));
    for (const members of byName.values()) {
      if (members.length < 2) continue;
      const remoteIds = members.map((post) => links.remoteIdOf(kind, post.id));
      const shared = remoteIds.some((id, index) => id !== null && remoteIds.indexOf(id) !== index);
      const allApart = remoteIds.every((id) => id !== null) && new Set(remoteIds).size === remoteIds.length;
      if (!shared && allApart) continue;
      const ordered = [...members].sort(
        (a, b) =>
          Number(links.remoteIdOf(kind, a.id) === null) - Number(links.remoteIdOf(kind, b.id) === null) ||
          a.id - b.id,
      );
      groups.push({
        kind,
        name: ordered[0]!.name,
        localIds: ordered.map((post) => post.id),
        apartNames: ordered.map((post, index) => (index === 0 ? post.name : apartName(post, index, taken))),
      });
    }
  }
  return groups;
}

/** A name of `post` no other record of its kind has: its name with what distinguishes it, else a number. */
function apartName(post: LinkedPost, index: number, taken: Set<string>): string {
  const detail = distinction(post);
  const candidates = [
    ...(detail ? [`${post.name} (${detail})`] : []),
    ...Array.from({ length: 100 }, (_, n) => `${post.name} (${index + 1 + n})`),
  ];
  const name = candidates.find((candidate) => !taken.has(foldedForMatch(candidate)))!;
  taken.add(foldedForMatch(name));
  return name;
}

/**
 * Settles the groups as the user chose, with the calendar's own writes as `caller`: `merge` merges every
 * other record of a group into the first (its events follow it); `keep-apart` gives each other record its
 * name of {@link SameNameGroup.apartNames}. A record linked to the remote record of another of its group
 * loses that link first: it is sent on its own (kept apart), or not at all (merged, its deletion would take
 * the other's record). Returns the records renamed (`kind:localId`): their new name is the user's choice, sent
 * to the remote as it is here.
 */
export async function settleSameNames(
  groups: SameNameGroup[],
  choice: SameNameChoice,
  store: CalendarStore,
  links: LinkState,
  caller: Caller,
  now: Date,
): Promise<Set<string>> {
  const call = { store, caller, now };
  const renamed = new Set<string>();
  for (const group of groups) {
    const [firstId, ...others] = group.localIds;
    const linked = new Set([links.remoteIdOf(group.kind, firstId!)]);
    for (const [index, id] of others.entries()) {
      const remoteId = links.remoteIdOf(group.kind, id);
      if (remoteId !== null && linked.has(remoteId)) await links.remove(group.kind, id);
      else linked.add(remoteId);
      if (choice === 'merge') await mergeLinkedPosts(group.kind, id, firstId!, call);
      else {
        const name = group.apartNames[index + 1]!;
        await changeLinkedPost(
          group.kind,
          id,
          group.kind === 'venue' ? { venue: name } : { organizer: name },
          call,
        );
        renamed.add(linkKey(group.kind, id));
      }
    }
  }
  return renamed;
}
