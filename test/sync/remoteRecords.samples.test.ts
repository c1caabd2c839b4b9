import { describe, expect, it } from 'vitest';
import { sampleFiles, sampleResponseBody } from '../helpers/originalSamples';
import { toRemoteRecord } from '../../src/main/sync/remoteRecords';
import type { SyncKind } from '../../src/main/sync/model';

type Json = Record<string, unknown>;

/**
 * Every event, venue, organizer, category and tag the original ever answered (test/fixtures/original: archives,
 * single reads, creates, updates, deletions, and the venues and organizers embedded in events) with the kind to
 * read it as: the strict reading of remote records (issue 26, item 10) must take every one of them.
 */
function recordsOf(body: Json): Array<[SyncKind, Json]> {
  if (body.code) return [];
  const found: Array<[SyncKind, Json]> = [];
  const add = (kind: SyncKind, record: Json) => {
    found.push([kind, record]);
    if (kind !== 'event') return;
    // An event embeds its venue and organizers in full, as the plugin answers them.
    if (record.venue && typeof record.venue === 'object' && !Array.isArray(record.venue))
      found.push(['venue', record.venue as Json]);
    if (Array.isArray(record.organizer))
      for (const organizer of record.organizer as Json[]) found.push(['organizer', organizer]);
  };
  const lists: Array<[string, SyncKind]> = [
    ['events', 'event'],
    ['venues', 'venue'],
    ['organizers', 'organizer'],
    ['categories', 'category'],
    ['tags', 'tag'],
  ];
  // An archive; a single event has `categories` and `tags` too (embedded terms), but no `rest_url` beside them.
  const isArchive = body.rest_url !== undefined && body.start_date === undefined;
  for (const [collection, kind] of lists) {
    if (
      Array.isArray(body[collection]) &&
      (isArchive || kind === 'event' || kind === 'venue' || kind === 'organizer')
    )
      (body[collection] as Json[]).forEach((record) => add(kind, record));
  }
  if (found.length) return found;
  const single = (body.previous && typeof body.previous === 'object' ? body.previous : body) as Json;
  if (typeof single.id !== 'number') return [];
  if (single.start_date !== undefined) add('event', single);
  else if (single.global_id && single.venue !== undefined) add('venue', single);
  else if (single.global_id && single.organizer !== undefined) add('organizer', single);
  else if (single.taxonomy === 'tribe_events_cat') add('category', single);
  else if (single.taxonomy === 'post_tag') add('tag', single);
  return found;
}

describe('the original’s recorded answers read as remote records', () => {
  it('every recorded event, venue, organizer and term parses, its texts and dates as sent', () => {
    const read = new Map<SyncKind, number>();
    for (const file of sampleFiles()) {
      const body = sampleResponseBody(file);
      if (!body) continue;
      for (const [kind, raw] of recordsOf(body)) {
        let record;
        try {
          record = toRemoteRecord('wordpress', kind, raw);
        } catch (error) {
          throw new Error(
            `${file}: a ${kind} (id ${String(raw.id)}) was refused: ${(error as Error).message}`,
          );
        }
        read.set(kind, (read.get(kind) ?? 0) + 1);
        expect(record.id, file).toBe(raw.id);
        if (kind === 'event') {
          expect(record.fields.title, file).toBe(raw.title);
          expect(record.fields.start_date, file).toBe(raw.start_date);
          expect(record.fields.end_date, file).toBe(raw.end_date);
        }
        if (kind === 'venue') expect(record.fields.venue, file).toBe(raw.venue);
        if (kind === 'organizer') expect(record.fields.organizer, file).toBe(raw.organizer);
      }
    }
    // Every kind is among the recordings, many events among them.
    expect(Object.fromEntries(read)).toMatchObject({
      event: expect.any(Number),
      venue: expect.any(Number),
      organizer: expect.any(Number),
      category: expect.any(Number),
      tag: expect.any(Number),
    });
    expect(read.get('event')).toBeGreaterThan(20);
  });
});

describe('a WordPress record that does not fit is refused, naming the field and what was sent', () => {
  /** The first event the original answered, as it sent it. */
  const recorded = (): Json => {
    for (const file of sampleFiles()) {
      const body = sampleResponseBody(file);
      const event = body && Array.isArray(body.events) ? (body.events as Json[])[0] : undefined;
      if (event) return structuredClone(event);
    }
    throw new Error('no recorded event');
  };
  const refusal = (change: (event: Json) => void) => {
    const event = recorded();
    change(event);
    try {
      toRemoteRecord('wordpress', 'event', event);
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };

  it('refuses what the plugin never sends', () => {
    expect(toRemoteRecord('wordpress', 'event', recorded()).fields.title).toBe(recorded().title);
    expect(refusal((event) => (event.title = { rendered: 'x' }))).toMatch(
      /its title must be text, not an object/,
    );
    expect(refusal((event) => (event.start_date = 12345))).toMatch(
      /its start_date must be a date written YYYY-MM-DD HH:MM:SS, not 12345/,
    );
    expect(refusal((event) => (event.description = ['a', { b: 1 }]))).toMatch(
      /its description must be text, not a list/,
    );
    expect(refusal((event) => (event.all_day = 'yes'))).toMatch(
      /its all_day must be true or false, not "yes"/,
    );
    expect(refusal((event) => (event.venue = { venue: 'no id' }))).toMatch(/its venue(\.id)? /);
    expect(refusal((event) => (event.organizer = ['7']))).toMatch(
      /its organizer\.0 must be an object, not "7"/,
    );
    expect(refusal((event) => (event.categories = 'music'))).toMatch(
      /its categories must be a list, not "music"/,
    );
    expect(refusal((event) => delete event.end_date)).toMatch(/it has no end_date/);
    expect(refusal((event) => (event.id = -4))).toMatch(/its id must be a positive whole number, not -4/);
  });

  it('takes what a password-protected record is blanked to (REFERENCE §6.4)', () => {
    const event = recorded();
    Object.assign(event, {
      description: '',
      all_day: null,
      show_map: null,
      categories: [],
      venue: [],
      organizer: [],
      image: false,
      cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
    });
    expect(toRemoteRecord('wordpress', 'event', event).fields).toMatchObject({ all_day: false, venue: 0 });
    const venue = toRemoteRecord('wordpress', 'venue', {
      id: 5,
      slug: 'hall',
      venue: [],
      geo_lat: 0,
      geo_lng: 0,
    });
    expect(venue.fields.venue).toBe('');
  });
});
