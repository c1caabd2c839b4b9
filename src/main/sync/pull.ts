import type { CalendarStore } from '../store/store';
import type { Caller } from '../core/capabilities';
import { changeEvent, EventRuleError, type EventInput } from '../core/events';
import { changeLinkedPost, type OrganizerInput, type VenueInput } from '../core/linkedPosts';
import { changeTerm, type TermChanges } from '../core/terms';
import { decodeHtmlEntities, toPlainText } from '../core/html';
import { WriteRefused } from '../core/writes';
import { RecordProblem } from './eventPassword';
import type { RemoteRecord, RemoteTexts, SyncKind } from './model';

/** Local id of a remote record, as far as the links know it. */
export type LocalIdOf = (kind: SyncKind, remoteId: number) => number | null;
/** Local media id of a remote picture, as far as the media links know it. */
export type LocalMediaOf = (remoteMediaId: number) => number | null;

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const flag = (value: unknown) => value === true;

/**
 * `remote-wins`: the local record takes the remote version of what the sync compares (references through
 * the links; a remote reference that is not linked is left as it is here). It is written by the same core
 * functions as the API's writes, as `caller` (who started the sync), so the same rules apply: a version
 * those refuse (a category parent that makes a loop, a record the caller may not change) is a
 * {@link RecordProblem} of that record. Returns the new local revision.
 */
export async function pullIntoLocal(
  store: CalendarStore,
  kind: SyncKind,
  localId: number,
  remote: RemoteRecord,
  localIdOf: LocalIdOf,
  now: Date,
  caller: Caller,
  localMediaOf: LocalMediaOf = () => null,
): Promise<number> {
  // The texts as written there (never the compared copies, which lose paragraphs and the cost's words).
  const texts = remote.texts;
  const fields = { ...remote.fields, ...(texts ? textFields(kind, texts) : {}) };
  // The remote's picture: the local one it came from, else the remote's by its address, else none.
  const remoteImage = typeof fields.image === 'number' ? fields.image : null;
  const image = remoteImage === null ? null : (localMediaOf(remoteImage) ?? remote.imageUrl ?? null);
  const call = { store, caller, now };
  const refused = (error: unknown): never => {
    if (error instanceof WriteRefused || error instanceof EventRuleError) throw pullRefused(error, caller);
    throw error;
  };
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
    return (await changeEvent(localId, input, call).catch(refused)).revision;
  }
  if (kind === 'venue' || kind === 'organizer') {
    // The slug and status stay local; the picture is the one found above.
    const patch = Object.fromEntries([
      ...Object.entries(fields).filter(([key]) => key !== 'slug' && key !== 'status' && key !== 'image'),
      ['image', image],
    ]) as VenueInput & OrganizerInput;
    return (await changeLinkedPost(kind, localId, patch, call).catch(refused)).revision;
  }
  const base = store.terms.get(localId)!;
  const parent =
    kind === 'category' && Number(fields.parent) ? localIdOf('category', Number(fields.parent)) : 0;
  // The plugin answers term names and descriptions with entities (`Rock &amp; Roll`).
  const name = decodeHtmlEntities(toPlainText(text(fields.name)));
  const changes: TermChanges = {
    // Sent only when changed, as the API's own update would: a rename is checked against its siblings' names.
    ...(name && name !== base.name ? { name } : {}),
    description: decodeHtmlEntities(toPlainText(text(fields.description))),
    ...(parent !== null && parent !== base.parent ? { parent } : {}),
  };
  return (await changeTerm(localId, changes, call).catch(refused)).revision;
}

/** What a refused pull tells the user: what the calendar's rule said, and what to do about it. */
function pullRefused(error: WriteRefused | EventRuleError, caller: Caller): RecordProblem {
  if (error instanceof WriteRefused && error.code === 'rest_forbidden') {
    return new RecordProblem(
      'SYNC_PULL_NOT_ALLOWED',
      `Its version on the remote was not taken: ${caller.login} (${caller.role}), who started the sync, may ` +
        'not change it in this calendar. Sync as an editor or administrator, or keep the local version.',
    );
  }
  const rule = error instanceof EventRuleError ? `${error.field}: ${error.message}` : error.message;
  return new RecordProblem(
    'SYNC_PULL_REFUSED',
    `Its version on the remote was not taken, because this calendar does not accept it (${rule}). ` +
      'Correct it on the remote and sync again, or keep the local version.',
  );
}

/** A record's texts under the names of its fields (the title is an event's `title`, a venue's `venue`…). */
function textFields(kind: SyncKind, texts: RemoteTexts): Record<string, string> {
  return {
    [kind === 'event' ? 'title' : kind]: texts.title,
    description: texts.description,
    ...(texts.excerpt !== undefined ? { excerpt: texts.excerpt } : {}),
  };
}
