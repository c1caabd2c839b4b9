import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildDataFile, seedDataFolder, SEED_DATA_FILE } from '../../bench/seedData';
import { dataFileSchema, SCHEMA_VERSION } from '../../src/main/store/schema';
import { CalendarStore } from '../../src/main/store/store';
import { toUtcSql } from '../../src/main/core/dates/sqlDates';
import { sanitizeRichText, toPlainText } from '../../src/main/core/html';
import { ensureAdminAccess } from '../../src/main/core/users';
import { expandSeries } from '../../src/main/core/recurrence/expand';

// The benchmark's seeding only: its timings are reported by `npm run bench`, never asserted here.
const now = new Date('2026-06-15T10:00:00Z');
const options = { events: 200, now, seed: 7 };

let dataDir: string | undefined;
afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

describe('benchmark seeding', () => {
  it('builds a data file the schema accepts, with realistic proportions', () => {
    const { data, counts } = buildDataFile(options);
    expect(dataFileSchema.safeParse(data).success).toBe(true);
    expect(data.schemaVersion).toBe(SCHEMA_VERSION);
    expect(counts).toMatchObject({
      events: 200,
      venues: 10,
      organizers: 7,
      categories: 8,
      tags: 15,
      users: 3,
    });
    expect(data.events).toHaveLength(200);
    expect(data.terms.filter((term) => term.taxonomy === 'category')).toHaveLength(8);
    expect(data.terms.filter((term) => term.taxonomy === 'tag')).toHaveLength(15);
    // Past and upcoming events, drafts, multi-day ones and costs are all represented.
    expect(counts.past).toBeGreaterThan(40);
    expect(counts.past).toBeLessThan(160);
    expect(counts.drafts).toBeGreaterThan(0);
    expect(counts.multiDay).toBeGreaterThan(0);
    expect(counts.withCost).toBeGreaterThan(0);
  });

  it('is deterministic for a seed and a date', () => {
    const a = buildDataFile(options);
    const b = buildDataFile(options);
    expect(b.data.events).toEqual(a.data.events);
    expect(b.sample).toEqual(a.sample);
  });

  it('stores what the API would store: unique ids and slugs, valid links, normalised text, exact UTC dates', () => {
    const { data, sample } = buildDataFile(options);
    const posts = [...data.events, ...data.venues, ...data.organizers, ...data.media];
    const ids = posts.map((post) => post.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Math.max(...ids)).toBe(data.counters.post);
    expect(Math.max(...data.terms.map((term) => term.id))).toBe(data.counters.term);
    expect(new Set(data.events.map((event) => event.slug)).size).toBe(data.events.length);

    const taxonomyOf = new Map(data.terms.map((term) => [term.id, term.taxonomy]));
    const venues = new Set(data.venues.map((venue) => venue.id));
    const organizers = new Set(data.organizers.map((organizer) => organizer.id));
    const media = new Set(data.media.map((item) => item.id));
    for (const event of data.events) {
      expect(event.categoryIds.length).toBeGreaterThan(0);
      for (const id of event.categoryIds) expect(taxonomyOf.get(id)).toBe('category');
      for (const id of event.tagIds) expect(taxonomyOf.get(id)).toBe('tag');
      if (event.venueId) expect(venues.has(event.venueId)).toBe(true);
      for (const id of event.organizerIds) expect(organizers.has(id)).toBe(true);
      if (event.imageId !== null) expect(media.has(event.imageId)).toBe(true);
      expect(event.endLocal >= event.startLocal).toBe(true);
      expect(event.startUtc).toBe(toUtcSql(event.startLocal, event.timezone));
      expect(event.endUtc).toBe(toUtcSql(event.endLocal, event.timezone));
      expect(toPlainText(event.title)).toBe(event.title);
      expect(sanitizeRichText(event.description)).toBe(event.description);
    }

    const event = data.events.find((candidate) => candidate.id === sample.eventId)!;
    expect(event).toMatchObject({ status: 'publish', hideFromListings: false, venueId: sample.venueId });
    expect(data.terms.find((term) => term.id === sample.categoryId)?.slug).toBe(sample.categorySlug);
  });

  it('seeds a folder the store opens with the right counts and the admin token it already knows', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-seed-'));
    const seeded = await seedDataFolder(dataDir, options);
    const onDisk = JSON.parse(await readFile(join(dataDir, SEED_DATA_FILE), 'utf8')) as unknown;
    expect(dataFileSchema.safeParse(onDisk).success).toBe(true);

    const store = await CalendarStore.open({
      dataDir,
      initialSettings: { siteName: 'x', siteDescription: '', timezone: 'UTC', postsPerPage: 10 },
    });
    try {
      expect(store.events.size).toBe(200);
      expect(store.venues.size).toBe(seeded.counts.venues);
      expect(store.organizers.size).toBe(seeded.counts.organizers);
      expect(store.terms.size).toBe(23);
      expect(store.media.size).toBe(seeded.counts.media);
      expect(store.users.size).toBe(3);
      expect(store.settings.timezone).toBe('Europe/Rome');
      // A valid token file is kept as it is: the server has nothing to write when it starts.
      expect(await ensureAdminAccess(store, () => now)).toBe(seeded.adminToken);
    } finally {
      await store.close();
    }
  });

  it("makes a fifth of the events occurrences of weekly series, each where the API's expansion puts it", () => {
    const { data, counts } = buildDataFile(options);
    expect(counts).toMatchObject({ series: 20, seriesOccurrences: 40 });
    const heads = data.events.filter((event) => event.recurrence);
    expect(heads).toHaveLength(20);
    for (const head of heads) {
      const occurrences = data.events
        .filter((event) => event.parentId === head.id)
        .sort((a, b) => a.startLocal.localeCompare(b.startLocal));
      const expected = expandSeries(
        {
          startLocal: head.startLocal,
          timezone: head.timezone,
          allDay: head.allDay,
          lines: head.recurrence!,
        },
        { untilLocal: '2099-12-31 23:59:59' },
      );
      expect([head, ...occurrences].map((event) => event.recurrenceId)).toEqual(expected);
      for (const event of occurrences) {
        expect(event.startLocal).toBe(event.recurrenceId);
        expect(event.startUtc).toBe(toUtcSql(event.startLocal, head.timezone));
        expect(event.title).toBe(head.title);
      }
    }
  });
});
