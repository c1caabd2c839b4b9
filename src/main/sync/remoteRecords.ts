import type { z } from 'zod';
import { venueTextWire } from '../../shared/fields/venue';
import { organizerTextWire } from '../../shared/fields/organizer';
import type { RemoteRecord, RemoteTexts, SyncKind } from './model';
import { RemoteError } from './remoteErrors';
import {
  REMOTE_RECORD_SCHEMAS,
  type RemoteDialect,
  type CalendarDeskEventAnswer,
  type RemoteEventAnswer,
  type RemoteOrganizerAnswer,
  type RemoteTermAnswer,
  type RemoteVenueAnswer,
} from './remoteDialects';
import { textOf } from '../core/values';
import { EVENT_FLAG_FIELDS, EVENT_TEXT_FIELDS } from '../../shared/fields/event';
import { objectOfRows } from '../../shared/fields/table';

/** A value a remote sent, named for a message (never the whole value: it may be large). */
function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return value.length ? 'a list' : 'an empty list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return textOf(value);
}

/** Each type zod names, in words. */
const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  never: 'nothing',
  false: 'false',
};

/** What a field must hold, in words: by the field where its type alone would say less (`a date`, not `text`). */
function expectedOf(kind: SyncKind, issue: z.core.$ZodIssue): string {
  const { path } = issue;
  const key = String(path.at(-1) ?? '');
  if (/(^|_)date$|^modified_utc$|^recurrence_id$/.test(key)) return 'a date written YYYY-MM-DD HH:MM:SS';
  if (path[0] === 'cost_details' && path[1] === 'values') return 'a cost';
  if (key === 'image') return 'a picture ({id, url}) or false';
  if (kind === 'event' && key === 'venue') return 'a venue ({id, …}) or [] for none';
  if (key === 'uid') return 'a UUID';
  if (issue.code === 'too_small') return 'a positive whole number';
  if (issue.code === 'invalid_value') return `one of ${issue.values.map(String).join(', ')}`;
  if (issue.code === 'invalid_union') {
    const words = issue.errors.map((errors) => {
      const first = errors[0];
      return first ? expectedOf(kind, { ...first, path }) : '';
    });
    return [...new Set(words.filter(Boolean))].join(' or ') || 'something else';
  }
  if (issue.code === 'invalid_type') return TYPE_WORDS[issue.expected] ?? issue.expected;
  return 'something else';
}

/** The first thing wrong with a record, in the remote's words: which field, and what it sent there. */
function problemOf(kind: SyncKind, error: z.ZodError): { field: string; words: string } {
  const issue = error.issues[0];
  if (!issue) return { field: '', words: 'it does not fit' };
  const field = issue.path.map(String).join('.');
  const sent = shown(issue.input);
  const words =
    sent === 'missing'
      ? `it has no ${field || 'content'}`
      : `${field ? `its ${field} ` : ''}must be ${expectedOf(kind, issue)}, not ${sent}`;
  return { field, words };
}

/** The text of a field the schema accepted: a name blanked to `[]`, null or absent is empty. */
const text = (value: string | never[] | null | undefined): string => (typeof value === 'string' ? value : '');
/** A flag the schema accepted: null (blanked) or absent is false. */
const flag = (value: boolean | null | undefined): boolean => value === true;
/** Ids of the records a list refers to, ascending. */
const idsOf = (refs: Array<{ id: number }> | undefined): number[] =>
  (refs ?? []).map((ref) => ref.id).sort((a, b) => a - b);
/** The one venue an event has (several, a Pro site's, are not synced), or 0. */
const venueOf = (venue: { id: number } | Array<{ id: number }> | undefined): number =>
  venue && !Array.isArray(venue) ? venue.id : 0;
/** A picture accepted by the schema, or null for none. */
const imageOf = (image: false | { id: number; url: string } | undefined) =>
  image ? { id: image.id, url: image.url } : null;
const coordinate = (value: number | string | undefined): number | undefined =>
  value === undefined ? undefined : Number(value);

/**
 * WordPress wraps rendered descriptions in paragraphs. Kept as the fingerprint of a remote record has always
 * been taken (links store it); comparisons go through compare.ts' normaliser, and `remote-wins` takes the
 * texts as answered ({@link RemoteRecord.texts}), never this cut copy.
 */
const description = (value: string | undefined): string =>
  text(value)
    .trim()
    .replace(/^<p>([\s\S]*)<\/p>$/, '$1');

/**
 * Reads one record of a remote answer, as its dialect writes that kind (`remoteDialects.ts`), into the shape
 * the planner compares. A record that does not fit is a REMOTE_BAD_RECORD naming the field and what was sent.
 */
export function toRemoteRecord(
  dialect: RemoteDialect,
  kind: SyncKind,
  raw: unknown,
  etag: string | null = null,
): RemoteRecord {
  const parsed = REMOTE_RECORD_SCHEMAS[dialect][kind].safeParse(raw, { reportInput: true });
  if (!parsed.success) {
    const { field, words } = problemOf(kind, parsed.error);
    const id = (raw as { id?: unknown } | null)?.id;
    throw new RemoteError(
      'REMOTE_BAD_RECORD',
      `The remote sent ${typeof id === 'number' ? `${kind} ${id}` : `a ${kind}`} that is not a valid ${kind}: ${words}.`,
      null,
      null,
      { field },
    );
  }
  if (kind === 'category' || kind === 'tag') {
    const term = parsed.data as RemoteTermAnswer;
    return {
      kind,
      id: term.id,
      slug: term.slug ?? '',
      ...uidOf(term.uid),
      modifiedUtc: null,
      etag,
      fields: {
        name: term.name,
        slug: term.slug ?? '',
        description: description(term.description),
        ...(kind === 'category' ? { parent: term.parent ?? 0 } : {}),
      },
    };
  }
  if (kind === 'venue') {
    const venue = parsed.data as RemoteVenueAnswer;
    const [lat, lng] = [coordinate(venue.geo_lat), coordinate(venue.geo_lng)];
    const fields = {
      venue: text(venue.venue),
      status: text(venue.status),
      description: description(venue.description),
      ...venueTextWire((key) => text(venue[key])),
      show_map: flag(venue.show_map),
      show_map_link: flag(venue.show_map_link),
      ...(lat !== undefined && lng !== undefined ? { geo_lat: lat, geo_lng: lng } : {}),
    };
    return postRecord(kind, venue, fields, etag, textsOf(kind, venue, venue.venue));
  }
  if (kind === 'organizer') {
    const organizer = parsed.data as RemoteOrganizerAnswer;
    const fields = {
      organizer: text(organizer.organizer),
      status: text(organizer.status),
      description: description(organizer.description),
      ...organizerTextWire((key) => text(organizer[key])),
    };
    return postRecord(kind, organizer, fields, etag, textsOf(kind, organizer, organizer.organizer));
  }
  const event = parsed.data as RemoteEventAnswer;
  // Only a Calendar Desk has series; WordPress' records have no such keys (one it sent would not be read).
  const series = dialect === 'calendar-desk' ? (event as CalendarDeskEventAnswer) : undefined;
  const fields = {
    status: text(event.status),
    all_day: flag(event.all_day),
    start_date: event.start_date ?? '',
    end_date: event.end_date ?? '',
    timezone: text(event.timezone),
    website: text(event.website),
    ...objectOfRows(EVENT_FLAG_FIELDS, 'wire', (row) => flag(event[row.wire])),
    // After the record's own keys, not first (see localEvent).
    ...objectOfRows(EVENT_TEXT_FIELDS, 'wire', (row) =>
      row.type === 'html' ? description(event[row.wire]) : text(event[row.wire]),
    ),
    venue: venueOf(event.venue),
    organizer: idsOf(event.organizer),
    categories: idsOf(event.categories),
    tags: idsOf(event.tags),
    cost: event.cost_details?.values ?? [],
    // A Calendar Desk's series: its RFC 5545 lines (an occurrence shows its head's). Compared on a series' head
    // (see `comparableLocal`); absent for a single event and from WordPress, so their fingerprints are as before.
    ...(series?.recurrence?.length ? { recurrence: series.recurrence } : {}),
  };
  const currency = event.cost_details;
  const texts: RemoteTexts = {
    ...textsOf(kind, event, event.title),
    excerpt: text(event.excerpt),
    cost: text(event.cost),
    // The currency the remote shows the event in: a Calendar Desk's is the event's own; WordPress' may be the
    // site's default, which the push then corrects (execute/currency.ts). For `remote-wins`, WordPress' texts
    // are replaced by what it stores (`storedTexts`).
    ...(currency
      ? {
          currency: {
            symbol: text(currency.currency_symbol),
            position: currencyPosition(currency.currency_position),
            code: text(currency.currency_code),
          },
        }
      : {}),
  };
  // Not compared (a remote without series has none): matches a series' occurrences with ours.
  const recurrenceId = series?.recurrence_id ?? null;
  return { ...postRecord(kind, event, fields, etag, texts), recurrenceId };
}

const currencyPosition = (position: string | undefined): 'prefix' | 'postfix' | '' =>
  position === 'prefix' || position === 'postfix' ? position : '';

/**
 * A venue, organizer or event: its compared fields plus its slug and picture (by remote media id), and its texts
 * as the remote answered them.
 */
function postRecord(
  kind: SyncKind,
  post: {
    id: number;
    slug?: string;
    uid?: string;
    modified_utc?: string;
    image?: false | { id: number; url: string };
  },
  fields: Record<string, unknown>,
  etag: string | null,
  texts: RemoteTexts,
): RemoteRecord {
  const image = imageOf(post.image);
  const slug = post.slug ?? '';
  return {
    kind,
    id: post.id,
    slug,
    ...uidOf(post.uid),
    modifiedUtc: post.modified_utc ?? null,
    etag,
    fields: { ...fields, slug, ...imageFields(image) },
    imageUrl: image?.url ?? null,
    texts,
  };
}

/** What `remote-wins` takes over: the title and description as answered. */
function textsOf(
  kind: SyncKind,
  post: { description?: string },
  title: string | never[] | undefined,
): RemoteTexts {
  return { title: text(title), description: text(post.description) };
}

/** The uid a Calendar Desk shows (a WordPress site has none): how the same record is found on every instance. */
function uidOf(uid: unknown): { uid?: string } {
  return typeof uid === 'string' && uid !== '' ? { uid: uid.toLowerCase() } : {};
}

/** The picture compared by its remote media id; no key when there is none (hashes as before pictures synced). */
const imageFields = (image: { id: number } | null) => (image ? { image: image.id } : {});
