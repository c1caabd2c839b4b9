import type { CalendarStore } from '../store/store';
import type { StoredTerm } from '../store/schema';
import type { Caller } from '../core/capabilities';
import { updateEvent, type EventInput } from '../core/events';
import { applyOrganizerInput, applyVenueInput } from '../core/linkedPosts';
import { nowUtc } from '../core/posts';
import { decodeHtmlEntities, toPlainText } from '../core/html';
import type { RemoteRecord, RemoteTexts, SyncKind } from './model';

/** Local id of a remote record, as far as the links know it. */
export type LocalIdOf = (kind: SyncKind, remoteId: number) => number | null;
/** Local media id of a remote picture, as far as the media links know it. */
export type LocalMediaOf = (remoteMediaId: number) => number | null;

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const flag = (value: unknown) => value === true;

/**
 * `remote-wins`: the local record takes the remote version of what the sync compares (references through
 * the links; a remote reference that is not linked is left as it is here). Returns the new local revision.
 */
export async function pullIntoLocal(
  store: CalendarStore,
  kind: SyncKind,
  localId: number,
  remote: RemoteRecord,
  localIdOf: LocalIdOf,
  now: Date,
  localMediaOf: LocalMediaOf = () => null,
): Promise<number> {
  // The texts as written there (never the compared copies, which lose paragraphs and the cost's words).
  const texts = remote.texts;
  const fields = { ...remote.fields, ...(texts ? textFields(kind, texts) : {}) };
  // The remote's picture: the local one it came from, else the remote's by its address, else none.
  const remoteImage = typeof fields.image === 'number' ? fields.image : null;
  const image = remoteImage === null ? null : (localMediaOf(remoteImage) ?? remote.imageUrl ?? null);
  const admin = [...store.users.values()].find((user) => user.role === 'administrator');
  const caller: Caller | null = admin
    ? { userId: admin.id, login: admin.login, role: 'administrator' }
    : null;
  return store.mutate((tx) => {
    const context = { tx, store, caller, now, language: 'en' as const };
    if (kind === 'event') {
      const base = store.events.get(localId)!;
      const ids = (refKind: SyncKind, value: unknown) =>
        (Array.isArray(value) ? value : [])
          .map((id) => localIdOf(refKind, Number(id)))
          .filter((id): id is number => id !== null);
      const venue = Number(fields.venue) ? localIdOf('venue', Number(fields.venue)) : 0;
      const input: EventInput = {
        title: text(fields.title),
        description: text(fields.description),
        excerpt: text(fields.excerpt),
        status: text(fields.status) || base.status,
        start_date: text(fields.start_date),
        end_date: text(fields.end_date),
        timezone: text(fields.timezone) || base.timezone,
        all_day: flag(fields.all_day),
        show_map: flag(fields.show_map),
        show_map_link: flag(fields.show_map_link),
        hide_from_listings: flag(fields.hide_from_listings),
        sticky: flag(fields.sticky),
        featured: flag(fields.featured),
        organizer: ids('organizer', fields.organizer),
        categories: ids('category', fields.categories),
        tags: ids('tag', fields.tags),
        ...(venue !== null ? { venue } : {}),
        image,
        ...(base.website !== null ? { website: text(fields.website) } : {}),
        ...(texts?.cost !== undefined ? { cost: texts.cost } : {}),
      };
      return updateEvent(base, input, context).revision;
    }
    if (kind === 'venue' || kind === 'organizer') {
      const patch = Object.fromEntries([
        ...Object.entries(fields).filter(([key]) => key !== 'slug' && key !== 'status' && key !== 'image'),
        ['image', image],
      ]) as Record<string, never>;
      if (kind === 'venue') {
        const base = store.venues.get(localId)!;
        const updated = {
          ...applyVenueInput(base, patch, context),
          modifiedUtc: nowUtc(now),
          revision: base.revision + 1,
        };
        tx.putVenue(updated);
        return updated.revision;
      }
      const base = store.organizers.get(localId)!;
      const updated = {
        ...applyOrganizerInput(base, patch, context),
        modifiedUtc: nowUtc(now),
        revision: base.revision + 1,
      };
      tx.putOrganizer(updated);
      return updated.revision;
    }
    const base = store.terms.get(localId)!;
    const parent =
      kind === 'category' && Number(fields.parent) ? localIdOf('category', Number(fields.parent)) : 0;
    const updated: StoredTerm = {
      ...base,
      // The plugin answers term names and descriptions with entities (`Rock &amp; Roll`).
      name: decodeHtmlEntities(toPlainText(text(fields.name))) || base.name,
      description: decodeHtmlEntities(toPlainText(text(fields.description))),
      parent: parent ?? base.parent,
      modifiedUtc: nowUtc(now),
      revision: base.revision + 1,
    };
    tx.putTerm(updated);
    return updated.revision;
  });
}

/** A record's texts under the names of its fields (the title is an event's `title`, a venue's `venue`…). */
function textFields(kind: SyncKind, texts: RemoteTexts): Record<string, string> {
  return {
    [kind === 'event' ? 'title' : kind]: texts.title,
    description: texts.description,
    ...(texts.excerpt !== undefined ? { excerpt: texts.excerpt } : {}),
  };
}
