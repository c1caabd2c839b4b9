/**
 * Builds a realistic calendar data file directly (no API calls), so that the benchmark can seed 100k events in
 * seconds. Records have the shape the API itself stores (see `createEvent`, `createVenue`, `createTerm`):
 * everything comes from the schema module, and the result is run through `dataFileSchema`, so a schema change
 * (a new version, a new top-level field with a default in `emptyDataFile`) is followed automatically and a new
 * required record field fails loudly here instead of producing a file the store refuses.
 */
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JournaledPersistence } from '../src/main/store/persistence';
import { withEventKeys } from '../src/main/store/lazyEvents';
import { changeFeedOf } from '../src/main/store/migrations';
import {
  dataFileSchema,
  emptyDataFile,
  type DataFile,
  type Settings,
  type StoredEvent,
  type StoredMedia,
  type StoredOrganizer,
  type StoredTerm,
  type StoredToken,
  type StoredUser,
  type StoredVenue,
} from '../src/main/store/schema';
import type { Language, Role } from '../src/shared/enums';
import { parseCostInput } from '../src/main/core/cost';
import { generateToken, hashSecret } from '../src/main/core/credentials';
import { slugify } from '../src/main/core/slugs';
import { ADMIN_TOKEN_FILE } from '../src/main/core/users';

/** A record's uid that is the same on every seeding (a valid version 4 UUID built from the kind and id). */
const seedUid = (kind: 'post' | 'term', id: number) =>
  `${kind === 'post' ? '00000000' : '00000001'}-0000-4000-8000-${id.toString(16).padStart(12, '0')}`;

/** The data file's name inside the data folder (the product's documented file). */
export const SEED_DATA_FILE = 'calendar.json';

export interface SeedOptions {
  /** How many events. Venues (~1 per 20 events), organizers (~1 per 30) and media follow. */
  events: number;
  /** Centre of the ~3-year date spread, and "now" for publication dates (default: the current time). */
  now?: Date;
  /** PRNG seed: the same seed, size and `now` give the same calendar. */
  seed?: number;
  /** Site time zone (most events use it; a few use another zone). */
  timezone?: string;
}

/** Ids and values the benchmark uses to build its requests. */
export interface SeedSample {
  /** Slug and id of the most used category. */
  categorySlug: string;
  categoryId: number;
  /** `start_date` of the filtered list (`Y-m-d`, 30 days before `now`). */
  filterStartDate: string;
  /** A published, listed event with a venue and an organizer, from the middle of the calendar. */
  eventId: number;
  venueId: number;
  organizerId: number;
  tagId: number;
}

export interface SeedCounts {
  events: number;
  venues: number;
  organizers: number;
  categories: number;
  tags: number;
  media: number;
  users: number;
  drafts: number;
  hidden: number;
  multiDay: number;
  allDay: number;
  past: number;
  withCost: number;
  /** Repeating series, and the events that are their occurrences (not their first events). */
  series: number;
  seriesOccurrences: number;
}

export interface SeedResult {
  data: DataFile;
  /** A bearer token of the seeded `admin` user (its hash is in `data.tokens`). */
  adminToken: string;
  sample: SeedSample;
  counts: SeedCounts;
}

const DAY_MS = 86_400_000;

/** Repeating events in the calendar: 500 weekly series whose occurrences are 20% of the events. */
const SERIES = 500;
const SERIES_SHARE = 0.2;

/**
 * Turns some events into weekly series, as the API stores them (head with its rule and `recurrenceId`, each
 * occurrence with `parentId` = head, same wall-clock time a week apart): `SERIES` series (fewer in small
 * calendars) whose occurrences are `SERIES_SHARE` of the events. Events are taken at even steps through the
 * list so series sit among every kind of event.
 */
function makeSeries(
  events: StoredEvent[],
  toUtc: (local: string, zone: string) => string,
): { series: number; seriesOccurrences: number } {
  const series = Math.min(SERIES, Math.floor(events.length / 10));
  if (series === 0) return { series, seriesOccurrences: 0 };
  const perSeries = Math.floor((events.length * SERIES_SHARE) / series);
  const step = Math.floor(events.length / series);
  let occurrences = 0;
  for (let s = 0; s < series; s++) {
    const head = events[s * step];
    head.recurrence = [`RRULE:FREQ=WEEKLY;COUNT=${perSeries + 1}`];
    head.recurrenceId = head.startLocal;
    for (let week = 1; week <= perSeries; week++) {
      const event = events[s * step + week];
      const shift = (local: string) =>
        sqlOf(new Date(Date.parse(`${local.replace(' ', 'T')}Z`) + week * 7 * DAY_MS));
      const startLocal = shift(head.startLocal);
      const endLocal = shift(head.endLocal);
      Object.assign(event, {
        title: head.title,
        timezone: head.timezone,
        allDay: head.allDay,
        categoryIds: head.categoryIds,
        tagIds: head.tagIds,
        venueId: head.venueId,
        organizerIds: head.organizerIds,
        status: head.status,
        hideFromListings: head.hideFromListings,
        password: head.password,
        parentId: head.id,
        recurrenceId: startLocal,
        startLocal,
        endLocal,
        startUtc: toUtc(startLocal, head.timezone),
        endUtc: toUtc(endLocal, head.timezone),
      });
      occurrences++;
    }
  }
  return { series, seriesOccurrences: occurrences };
}

/** mulberry32: small, fast and good enough for test data. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    weighted: <T>(items: readonly (readonly [T, number])[]): T => {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [item, weight] of items) {
        roll -= weight;
        if (roll < 0) return item;
      }
      return items[items.length - 1][0];
    },
  };
}
type Random = ReturnType<typeof prng>;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** `Y-m-d H:i:s` of the UTC fields of `date`. */
const sqlOf = (date: Date) =>
  `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
  `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
/** A wall-clock `Y-m-d H:i:s` string back to a Date holding it in its UTC fields. */
const wallMs = (sql: string) => Date.parse(`${sql.replace(' ', 'T')}Z`);

/**
 * `toUtcSql` costs about 0.3 ms a call (Luxon builds a formatter each time); 200k calls would dominate seeding.
 * Offsets come from one `Intl` formatter per zone instead, cached per zone and day (per hour before 04:00,
 * around the DST switch). Seeded times never fall into a DST gap or overlap; the tests check the results
 * against `toUtcSql`.
 */
function utcConverter() {
  const formatters = new Map<string, Intl.DateTimeFormat>();
  const offsets = new Map<string, number>();
  /** Offset of `zone` (ms to add to UTC) at the instant `utcMs`. */
  const offsetAt = (zone: string, utcMs: number) => {
    let format = formatters.get(zone);
    if (!format) {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
      formatters.set(zone, format);
    }
    const parts: Record<string, number> = {};
    for (const part of format.formatToParts(new Date(utcMs))) parts[part.type] = Number(part.value);
    const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
    return wall - Math.floor(utcMs / 1000) * 1000;
  };
  return (local: string, zone: string): string => {
    if (zone === 'UTC') return local;
    const hour = Number(local.slice(11, 13));
    const probe = hour < 4 ? `${local.slice(0, 13)}:00:00` : `${local.slice(0, 10)} 12:00:00`;
    const key = `${zone}|${probe}`;
    let offset = offsets.get(key);
    if (offset === undefined) {
      const probeMs = wallMs(probe);
      offset = offsetAt(zone, probeMs - offsetAt(zone, probeMs));
      offsets.set(key, offset);
    }
    return sqlOf(new Date(wallMs(local) - offset));
  };
}

/** WordPress-style unique slugs (`title`, `title-2`, …) without rescanning: one counter per base. */
function slugAllocator() {
  const taken = new Set<string>();
  const nextSuffix = new Map<string, number>();
  const cache = new Map<string, string>();
  return (title: string, fallback: string): string => {
    let base = cache.get(title);
    if (base === undefined) {
      base = slugify(title) || fallback;
      cache.set(title, base);
    }
    let slug = base;
    if (taken.has(slug)) {
      let n = nextSuffix.get(base) ?? 2;
      while (taken.has(`${base}-${n}`)) n++;
      slug = `${base}-${n}`;
      nextSuffix.set(base, n + 1);
    }
    taken.add(slug);
    return slug;
  };
}

const CATEGORIES: readonly (readonly [string, number])[] = [
  ['Music', 25],
  ['Theatre', 15],
  ['Workshops', 12],
  ['Family', 12],
  ['Sports', 10],
  ['Talks', 10],
  ['Exhibitions', 8],
  ['Food & Drink', 8],
];
const TAGS = [
  'free',
  'outdoor',
  'indoor',
  'kids',
  'accessible',
  'online',
  'weekend',
  'evening',
  'beginner',
  'advanced',
  'members only',
  'festival',
  'charity',
  'premiere',
  'sold out',
];
const TITLES: Record<string, string[]> = {
  Music: ['Jazz Night', 'Chamber Concert', 'Open Mic', 'Piano Recital', 'Choir Evening', 'Rock on the Roof'],
  Theatre: ['Improv Show', 'Opening Night', 'Puppet Theatre', 'Shakespeare Reading', 'Comedy Club'],
  Workshops: ['Pottery Workshop', 'Photography Walk', 'Coding Dojo', 'Bread Baking Class', 'Life Drawing'],
  Family: ['Story Time', 'Family Science Day', 'Lego Club', 'Kids Cinema', 'Treasure Hunt'],
  Sports: ['Park Run', 'Yoga in the Park', 'Climbing Meetup', 'Five-a-side Tournament', 'Cycling Tour'],
  Talks: ['Author Talk', 'History Lecture', 'Startup Breakfast', 'Science Café', 'Book Club'],
  Exhibitions: ['Gallery Opening', 'Photo Exhibition', 'Guided Museum Tour', 'Design Fair', 'Print Market'],
  'Food & Drink': ['Wine Tasting', 'Street Food Market', 'Cooking Demo', 'Craft Beer Evening', 'Supper Club'],
};
const CITIES = [
  { city: 'Bologna', country: 'Italy', province: 'BO', state: '', zip: '40121', lat: 44.49, lng: 11.34 },
  { city: 'Milano', country: 'Italy', province: 'MI', state: '', zip: '20121', lat: 45.46, lng: 9.19 },
  { city: 'Roma', country: 'Italy', province: 'RM', state: '', zip: '00184', lat: 41.9, lng: 12.5 },
  { city: 'Torino', country: 'Italy', province: 'TO', state: '', zip: '10121', lat: 45.07, lng: 7.69 },
  {
    city: 'Kraków',
    country: 'Poland',
    province: 'Małopolskie',
    state: '',
    zip: '31-001',
    lat: 50.06,
    lng: 19.94,
  },
  { city: 'Berlin', country: 'Germany', province: 'Berlin', state: '', zip: '10115', lat: 52.52, lng: 13.4 },
  { city: 'Lyon', country: 'France', province: 'Rhône', state: '', zip: '69001', lat: 45.76, lng: 4.84 },
  {
    city: 'Austin',
    country: 'United States',
    province: '',
    state: 'TX',
    zip: '78701',
    lat: 30.27,
    lng: -97.74,
  },
  {
    city: 'Portland',
    country: 'United States',
    province: '',
    state: 'OR',
    zip: '97205',
    lat: 45.52,
    lng: -122.68,
  },
];
const VENUE_KINDS = ['Teatro', 'Hall', 'Club', 'Library', 'Park', 'Gallery', 'Community Centre', 'Studio'];
const VENUE_NAMES = [
  'Comunale',
  'Blue Note',
  'Riverside',
  'Old Mill',
  'Central',
  'Garden',
  'Harbour',
  'Lantern',
];
const STREETS = ['Via Roma', 'Main Street', 'Corso Italia', 'Market Square', 'Station Road', 'Via Mazzini'];
const FIRST = ['Anna', 'Marco', 'Julia', 'Piotr', 'Sofia', 'Luca', 'Emma', 'Tomasz', 'Clara', 'Noah'];
const LAST = ['Rossi', 'Nowak', 'Müller', 'Bianchi', 'Martin', 'Kowalski', 'Smith', 'Ferrari', 'Dubois'];
const ORG_KINDS = ['Productions', 'Association', 'Collective', 'Events', 'Foundation', 'Club'];
const SENTENCES = [
  'Join us for an evening that brings together neighbours, friends and newcomers.',
  'Doors open thirty minutes before the start; seating is first come, first served.',
  'The programme is suitable for all ages and the venue is step-free.',
  'Bring a friend: every second ticket is half price for members.',
  'Light refreshments are served during the interval.',
  'Please register in advance so that we can plan the space.',
  'Our guest speaker has worked in the field for over twenty years.',
  'In case of rain the event moves indoors to the main hall.',
  'Materials are provided; wear clothes you do not mind getting dirty.',
  'The session is recorded and shared with registered participants afterwards.',
];
/** Cost inputs as people type them, parsed with the API's own parser. */
const COST_INPUTS: readonly (readonly [Array<string>, number])[] = [
  [[], 40],
  [['Free'], 8],
  [['0'], 6],
  [['€10'], 10],
  [['€15 - €25'], 8],
  [['12 €'], 6],
  [['$5'], 4],
  [['10', '20'], 6],
  [['Donation'], 2],
  [['€8,50'], 4],
];
const OTHER_ZONES = ['Europe/London', 'America/New_York', 'Europe/Warsaw'];

function description(random: Random): string {
  const paragraphs = random.int(1, 3);
  const parts: string[] = [];
  for (let p = 0; p < paragraphs; p++) {
    const sentences = random.int(2, 4);
    const text: string[] = [];
    for (let s = 0; s < sentences; s++) text.push(random.pick(SENTENCES));
    parts.push(`<p>${text.join(' ')}</p>`);
  }
  return parts.join('\n');
}

/** Builds the data file in memory (validated against the schema). */
export function buildDataFile(options: SeedOptions): SeedResult {
  const random = prng(options.seed ?? 20_240_101);
  const now = options.now ?? new Date();
  const siteZone = options.timezone ?? 'Europe/Rome';
  const nowSql = sqlOf(now);
  const toUtc = utcConverter();
  const settings: Settings = {
    siteName: 'Calendar Desk Bench',
    siteDescription: 'A seeded calendar for the benchmark',
    timezone: siteZone,
    postsPerPage: 10,
  };
  // Everything not built below (version, counters, settings, future top-level fields) comes from the schema.
  const data = emptyDataFile(settings);
  let postId = 0;
  let termId = 0;
  const utcAt = (ms: number) => sqlOf(new Date(Math.min(ms, now.getTime())));

  // Users: the admin (with the API token the benchmark uses) and two other writers.
  const userSpecs: [string, string, Role][] = [
    ['admin', 'Administrator', 'administrator'],
    ['editor', 'Edith Editor', 'editor'],
    ['author', 'Arthur Author', 'author'],
  ];
  const users: StoredUser[] = userSpecs.map(([login, displayName, role], index) => ({
    id: index + 1,
    login,
    displayName,
    role,
    appPasswords: [],
    createdUtc: utcAt(now.getTime() - 800 * DAY_MS),
  }));
  const { id: tokenId, secret, token: adminToken } = generateToken();
  const tokens: StoredToken[] = [
    { id: tokenId, userId: 1, name: 'admin token', createdUtc: nowSql, ...hashSecret(secret) },
  ];

  // Terms: 8 categories (weighted), 15 tags.
  const terms: StoredTerm[] = [];
  const termSlugs = { category: new Set<string>(), tag: new Set<string>() };
  const term = (taxonomy: StoredTerm['taxonomy'], name: string): StoredTerm => {
    let slug = slugify(name);
    for (let n = 2; termSlugs[taxonomy].has(slug); n++) slug = `${slugify(name)}-${n}`;
    termSlugs[taxonomy].add(slug);
    const record: StoredTerm = {
      id: ++termId,
      uid: seedUid('term', termId),
      taxonomy,
      name,
      slug,
      description: taxonomy === 'category' ? `Everything about ${name.toLowerCase()}.` : '',
      parent: 0,
      language: 'en',
      modifiedUtc: utcAt(now.getTime() - 700 * DAY_MS),
      revision: 1,
    };
    terms.push(record);
    return record;
  };
  const categories = CATEGORIES.map(([name, weight]) => [term('category', name), weight] as const);
  const tags = TAGS.map((name) => term('tag', name));

  // Venues (~1 per 20 events) and organizers (~1 per 30 events).
  const venueSlug = slugAllocator();
  const venues: StoredVenue[] = [];
  const venueCount = Math.max(1, Math.round(options.events / 20));
  for (let i = 0; i < venueCount; i++) {
    const place = random.pick(CITIES);
    const name = `${random.pick(VENUE_NAMES)} ${random.pick(VENUE_KINDS)} ${place.city}`;
    const created = utcAt(now.getTime() - random.int(300, 900) * DAY_MS);
    const usa = place.country === 'United States';
    const geo = random.chance(0.7);
    venues.push({
      id: ++postId,
      uid: seedUid('post', postId),
      authorId: 1,
      status: 'publish',
      slug: venueSlug(name, `venue-${postId}`),
      language: 'en',
      description: random.chance(0.5) ? description(random) : '',
      excerpt: '',
      imageId: null,
      password: '',
      parentId: 0,
      dateUtc: created,
      modifiedUtc: created,
      revision: 1,
      kind: 'venue',
      name,
      address: `${random.int(1, 250)} ${random.pick(STREETS)}`,
      city: place.city,
      country: place.country,
      province: place.province,
      state: place.state,
      zip: place.zip,
      phone: random.chance(0.6) ? `+39 051 ${random.int(100_000, 999_999)}` : '',
      website: random.chance(0.5) ? `https://venues.example.org/${postId}` : '',
      // The API derives it: the state in the US, else the province.
      stateprovince: usa && place.state ? place.state : place.province,
      showMap: true,
      showMapLink: true,
      geoLat: geo ? place.lat + (random.next() - 0.5) / 20 : null,
      geoLng: geo ? place.lng + (random.next() - 0.5) / 20 : null,
    });
  }
  const organizerSlug = slugAllocator();
  const organizers: StoredOrganizer[] = [];
  const organizerCount = Math.max(1, Math.round(options.events / 30));
  for (let i = 0; i < organizerCount; i++) {
    const person = `${random.pick(FIRST)} ${random.pick(LAST)}`;
    const name = random.chance(0.4) ? person : `${random.pick(LAST)} ${random.pick(ORG_KINDS)}`;
    const created = utcAt(now.getTime() - random.int(300, 900) * DAY_MS);
    organizers.push({
      id: ++postId,
      uid: seedUid('post', postId),
      authorId: 1,
      status: 'publish',
      slug: organizerSlug(name, `organizer-${postId}`),
      language: 'en',
      description: random.chance(0.3) ? description(random) : '',
      excerpt: '',
      imageId: null,
      password: '',
      parentId: 0,
      dateUtc: created,
      modifiedUtc: created,
      revision: 1,
      kind: 'organizer',
      name,
      phone: random.chance(0.5) ? `+48 12 ${random.int(100_000, 999_999)}` : '',
      website: random.chance(0.5) ? `https://organizers.example.org/${postId}` : '',
      email: random.chance(0.7) ? `contact${postId}@example.org` : '',
    });
  }

  // Media: images referenced by URL (as an `image` URL argument records them), ~1 per 50 events.
  const media: StoredMedia[] = [];
  const mediaCount = Math.max(1, Math.round(options.events / 50));
  for (let i = 0; i < mediaCount; i++) {
    const id = ++postId;
    media.push({
      id,
      url: `https://images.example.org/events/photo-${id}.jpg`,
      extension: 'jpg',
      fileName: null,
      authorId: 1,
      dateUtc: utcAt(now.getTime() - random.int(1, 900) * DAY_MS),
    });
  }

  // Events: ~3 years centred on now, evenings and weekends favoured; drafts, hidden, multi-day, all-day, costs.
  const costs = COST_INPUTS.map(([input, weight]) => [parseCostInput(input)!, weight] as const);
  const eventSlug = slugAllocator();
  const events: StoredEvent[] = [];
  const counts = { drafts: 0, hidden: 0, multiDay: 0, allDay: 0, past: 0, withCost: 0 };
  const spreadDays = 1095;
  const firstDay = Math.floor(now.getTime() / DAY_MS) - Math.floor(spreadDays / 2);
  const languages: (readonly [Language, number])[] = [
    ['en', 90],
    ['it', 6],
    ['pl', 4],
  ];
  for (let i = 0; i < options.events; i++) {
    const id = ++postId;
    const category = random.weighted(categories);
    const extraCategory = random.chance(0.15) ? random.weighted(categories) : category;
    const categoryIds = [...new Set([category.id, extraCategory.id])];
    const tagIds = [...new Set(Array.from({ length: random.int(0, 3) }, () => random.pick(tags).id))];
    const venue = random.chance(0.9) ? random.pick(venues) : undefined;
    const organizerIds = [
      ...new Set(
        Array.from(
          {
            length: random.weighted([
              [0, 10],
              [1, 75],
              [2, 15],
            ] as const),
          },
          () => random.pick(organizers).id,
        ),
      ),
    ];
    const zone = random.chance(0.05) ? random.pick(OTHER_ZONES) : siteZone;
    const day = firstDay + random.int(0, spreadDays - 1);
    const dayStart = day * DAY_MS;
    const allDay = random.chance(0.06);
    const multiDay = random.chance(0.08);
    let startMs: number;
    let endMs: number;
    if (allDay) {
      startMs = dayStart;
      endMs = dayStart + (multiDay ? random.int(1, 4) : 0) * DAY_MS + DAY_MS - 1000;
    } else {
      const hour = random.weighted([
        [9, 2],
        [10, 3],
        [14, 2],
        [17, 2],
        [18, 4],
        [19, 5],
        [20, 5],
        [21, 2],
      ] as const);
      startMs = dayStart + hour * 3_600_000 + random.pick([0, 0, 15, 30, 30, 45]) * 60_000;
      endMs = multiDay
        ? startMs + random.int(1, 6) * DAY_MS + random.int(-2, 3) * 3_600_000
        : Math.min(startMs + random.int(1, 6) * 1_800_000, dayStart + DAY_MS - 1000);
    }
    const startLocal = sqlOf(new Date(startMs));
    const endLocal = sqlOf(new Date(endMs));
    const title = `${random.pick(TITLES[category.name])} in ${venue?.city ?? random.pick(CITIES).city}`;
    const status = random.chance(0.05) ? 'draft' : 'publish';
    const hideFromListings = random.chance(0.01);
    const published = Math.min(
      startMs - random.int(7, 120) * DAY_MS,
      now.getTime() - random.int(0, 30) * DAY_MS,
    );
    const modified = Math.min(published + random.int(0, 10) * DAY_MS, now.getTime());
    const cost = random.weighted(costs);
    events.push({
      id,
      uid: seedUid('post', id),
      kind: 'event',
      authorId: random.weighted([
        [1, 70],
        [2, 20],
        [3, 10],
      ] as const),
      status,
      slug: eventSlug(title, `event-${id}`),
      language: random.weighted(languages),
      description: description(random),
      excerpt: random.chance(0.2) ? `<p>${random.pick(SENTENCES)}</p>` : '',
      imageId: random.chance(0.25) ? random.pick(media).id : null,
      password: random.chance(0.002) ? 'secret' : '',
      parentId: 0,
      dateUtc: sqlOf(new Date(published)),
      modifiedUtc: sqlOf(new Date(modified)),
      revision: modified > published ? random.int(2, 4) : 1,
      title,
      startLocal,
      endLocal,
      startUtc: toUtc(startLocal, zone),
      endUtc: toUtc(endLocal, zone),
      timezone: zone,
      allDay,
      cost: cost.values,
      currencySymbol: cost.symbol,
      currencyPosition: cost.position,
      website: random.chance(0.3) ? `https://tickets.example.org/e/${id}` : null,
      showMap: random.chance(0.95),
      showMapLink: random.chance(0.95),
      hideFromListings,
      sticky: random.chance(0.01),
      featured: random.chance(0.05),
      ticketed: random.chance(0.1),
      categoryIds,
      tagIds,
      venueId: venue?.id ?? 0,
      organizerIds,
    });
    if (status === 'draft') counts.drafts++;
    if (hideFromListings) counts.hidden++;
    if (multiDay) counts.multiDay++;
    if (allDay) counts.allDay++;
    if (endLocal < nowSql) counts.past++;
    if (cost.values.length > 0) counts.withCost++;
  }

  const repeating = makeSeries(events, toUtc);
  data.counters = { ...data.counters, post: postId, term: termId, user: users.length };
  data.users = users;
  data.tokens = tokens;
  data.terms = terms;
  data.venues = venues;
  data.organizers = organizers;
  data.media = media;
  data.events = events;

  const topCategory = categories[0][0];
  const middle = events.slice(Math.floor(events.length / 2));
  const sampleEvent =
    middle.find(
      (event) =>
        event.status === 'publish' &&
        !event.hideFromListings &&
        !event.password &&
        event.venueId > 0 &&
        event.organizerIds.length > 0,
    ) ?? events[0];
  const filterStart = new Date(now.getTime() - 30 * DAY_MS);
  return {
    // Parsing strips anything the schema does not know and fails on anything it lacks.
    // As the app's own data file has it: every record in the change feed (another Calendar Desk reads what a
    // calendar holds through it), in the order the upgrade to the feed numbers them.
    data: dataFileSchema.parse({ ...data, changeFeed: changeFeedOf(data) }),
    adminToken,
    sample: {
      categorySlug: topCategory.slug,
      categoryId: topCategory.id,
      filterStartDate: sqlOf(filterStart).slice(0, 10),
      eventId: sampleEvent.id,
      venueId: sampleEvent.venueId,
      organizerId: sampleEvent.organizerIds[0] ?? 0,
      tagId: tags[0].id,
    },
    counts: {
      events: events.length,
      venues: venues.length,
      organizers: organizers.length,
      categories: categories.length,
      tags: tags.length,
      media: media.length,
      users: users.length,
      ...counts,
      ...repeating,
    },
  };
}

/**
 * Seeds a data folder: the data file plus the admin token file, so that a server started on it has nothing to
 * write at start. The data file is written by the store's own persistence, exactly as the app writes a new
 * folder (layout, fingerprint): a start then measures opening the app's own file, not importing a foreign one.
 * Returns what `buildDataFile` returns (without the data) and the file's size.
 */
export async function seedDataFolder(
  dataDir: string,
  options: SeedOptions,
): Promise<Omit<SeedResult, 'data'> & { fileBytes: number }> {
  const { data, ...rest } = buildDataFile(options);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const persistence = new JournaledPersistence(dataDir);
  try {
    // A new folder: nothing to validate is read.
    await persistence.load(() => {
      throw new Error(`${dataDir} already holds a calendar: seed an empty folder.`);
    });
    await persistence.writeSnapshot(withEventKeys(data));
  } finally {
    await persistence.close();
  }
  const tokenFile = join(dataDir, ADMIN_TOKEN_FILE);
  await writeFile(tokenFile, `${rest.adminToken}\n`, { mode: 0o600 });
  await chmod(tokenFile, 0o600);
  return { ...rest, fileBytes: (await stat(join(dataDir, SEED_DATA_FILE))).size };
}
