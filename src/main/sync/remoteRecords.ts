import { z } from 'zod';
import type { RemoteRecord, RemoteTexts, SyncKind } from './model';
import { RemoteError } from './remoteErrors';
import { costDetailsSchema, eventResponseSchema } from '../../shared/schemas/records';

/** What every remote record must have; everything else is read leniently (the original omits empty values). */
const base = z.looseObject({ id: z.number().int().nonnegative(), slug: z.string().default('') });

/** A value a remote sent, named for a message (never the whole value: it may be large). */
function shown(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}

/**
 * A field read through one of the shared record schemas (src/shared/schemas/records.ts: what this app answers,
 * the single source of each field's type), as the remotes' quirks allow: absent, null, false or '' is empty
 * (the original omits or blanks empty values), `number` also takes a number (a WordPress field stored as one).
 * Anything else — an object or a list where text is expected, a number where a date is — is refused, naming
 * what was expected: the record is reported as failed, never stored as junk.
 */
function field(schema: z.ZodType<string>, expected: string, options: { number?: boolean } = {}) {
  return z
    .unknown()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === null || value === false || value === '') return '';
      if (options.number && typeof value === 'number' && Number.isFinite(value)) return String(value);
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      context.addIssue({ code: 'custom', message: `must be ${expected}, not ${shown(value)}` });
      return z.NEVER;
    });
}
/** Text of any kind (names, addresses, descriptions): the shared schemas' string. */
const text = field(eventResponseSchema.shape.title, 'text', { number: true });
/** A date and time as the APIs write them (`Y-m-d H:i:s`), the shared schema's. */
const date = field(eventResponseSchema.shape.start_date, 'a date written YYYY-MM-DD HH:MM:SS');
const flag = z
  .unknown()
  .optional()
  .transform((value) => value === true || value === 'true' || value === 1 || value === '1');
const idOf = z
  .unknown()
  .optional()
  .transform((value) =>
    value && typeof value === 'object' && 'id' in value ? Number((value as { id: unknown }).id) : 0,
  );
const idsOf = z
  .unknown()
  .optional()
  .transform((value) =>
    Array.isArray(value)
      ? value
          .map((item) =>
            item && typeof item === 'object' && 'id' in item
              ? Number((item as { id: unknown }).id)
              : Number(item),
          )
          .filter((id) => Number.isInteger(id))
          .sort((a, b) => a - b)
      : [],
  );

/** A featured image (REFERENCE §3.4): `{url, id, …}`, or `false` / absent (dropped as empty) for none. */
const imageOf = z
  .union(
    [
      z.looseObject({ id: z.coerce.number().int().positive(), url: z.string() }),
      z.literal(false),
      z.literal(''),
      z.null(),
    ],
    { error: (issue) => `must be a picture ({id, url}) or false, not ${shown(issue.input)}` },
  )
  .optional()
  .transform((image) => (image ? { id: image.id, url: image.url } : null));

/**
 * WordPress wraps rendered descriptions in paragraphs. Kept as the fingerprint of a remote record has always
 * been taken (links store it); comparisons go through compare.ts' normaliser, and `remote-wins` takes the
 * texts as answered ({@link RemoteRecord.texts}), never this cut copy.
 */
const description = text.transform((value) => value.trim().replace(/^<p>([\s\S]*)<\/p>$/, '$1'));
/** The texts of an event, venue or organizer as the remote answered them. */
const answeredTexts = z.looseObject({ description: text, excerpt: text, cost: text });
/** An event's own currency as a Calendar Desk answers it (WordPress' texts are replaced by what it stores). */
const answeredCurrency = z
  .looseObject({
    cost_details: z
      .looseObject({
        currency_symbol: text,
        currency_position: z.enum(['prefix', 'postfix', '']).catch(''),
        currency_code: text,
      })
      .optional()
      .catch(undefined),
  })
  .transform(({ cost_details: details }) =>
    details
      ? { symbol: details.currency_symbol, position: details.currency_position, code: details.currency_code }
      : undefined,
  );

const termShape = base.extend({
  name: text,
  description,
  parent: z
    .unknown()
    .optional()
    .transform((value) => Number(value) || 0),
});
const venueShape = base.extend({
  venue: text,
  status: text,
  description,
  address: text,
  city: text,
  country: text,
  province: text,
  state: text,
  zip: text,
  phone: text,
  website: text,
  stateprovince: text,
  show_map: flag,
  show_map_link: flag,
  geo_lat: z.number().nullable().optional(),
  geo_lng: z.number().nullable().optional(),
  image: imageOf,
  modified_utc: z.string().optional(),
});
const organizerShape = base.extend({
  organizer: text,
  status: text,
  description,
  phone: text,
  website: text,
  email: text,
  image: imageOf,
  modified_utc: z.string().optional(),
});
const eventShape = base.extend({
  title: text,
  status: text,
  description,
  excerpt: description,
  all_day: flag,
  start_date: date,
  end_date: date,
  timezone: text,
  cost_details: z
    .looseObject({
      values: z.array(field(costDetailsSchema.shape.values.element, 'a cost', { number: true })).default([]),
    })
    .optional()
    .transform((details) => (details?.values ?? []).map(String)),
  website: text,
  show_map: flag,
  show_map_link: flag,
  hide_from_listings: flag,
  sticky: flag,
  featured: flag,
  venue: idOf,
  organizer: idsOf,
  categories: idsOf,
  tags: idsOf,
  image: imageOf,
  modified_utc: z.string().optional(),
  // Not compared (a remote without series has none): matches a series' occurrences with ours.
  recurrence_id: z.string().nullable().optional().catch(null),
  // A Calendar Desk's series: its RFC 5545 lines (an occurrence shows its head's). Compared on a series' head
  // (see `comparableLocal`); absent for a single event and from WordPress, so their fingerprints are as before.
  recurrence: z.array(z.string()).optional().catch(undefined),
});

/** Reads one record of a remote answer into the shape the planner compares. */
export function toRemoteRecord(kind: SyncKind, raw: unknown, etag: string | null = null): RemoteRecord {
  const fail = (error: z.ZodError) => {
    const issue = error.issues[0];
    const where = issue?.path.length ? `its ${issue.path.join('.')} ${issue.message}` : issue?.message;
    const id = (raw as { id?: unknown } | null)?.id;
    return new RemoteError(
      'REMOTE_BAD_RECORD',
      `The remote sent ${typeof id === 'number' ? `${kind} ${id}` : `a ${kind}`} that is not a valid ${kind}: ${where}.`,
      null,
      null,
      { field: issue?.path.join('.') ?? '' },
    );
  };
  if (kind === 'category' || kind === 'tag') {
    const parsed = termShape.safeParse(raw);
    if (!parsed.success) throw fail(parsed.error);
    const term = parsed.data;
    return {
      kind,
      id: term.id,
      slug: term.slug,
      ...uidOf(raw),
      modifiedUtc: null,
      etag,
      fields: {
        name: term.name,
        slug: term.slug,
        description: term.description,
        ...(kind === 'category' ? { parent: term.parent } : {}),
      },
    };
  }
  if (kind === 'venue') {
    const parsed = venueShape.safeParse(raw);
    if (!parsed.success) throw fail(parsed.error);
    const { geo_lat, geo_lng, ...venue } = parsed.data;
    const fields = pick(venue, Object.keys(venueShape.shape));
    if (typeof geo_lat === 'number' && typeof geo_lng === 'number')
      Object.assign(fields, { geo_lat, geo_lng });
    return postRecord(kind, venue, fields, etag, raw);
  }
  if (kind === 'organizer') {
    const parsed = organizerShape.safeParse(raw);
    if (!parsed.success) throw fail(parsed.error);
    return postRecord(kind, parsed.data, pick(parsed.data, Object.keys(organizerShape.shape)), etag, raw);
  }
  const parsed = eventShape.safeParse(raw);
  if (!parsed.success) throw fail(parsed.error);
  const event = parsed.data;
  const fields = {
    ...pick(event, Object.keys(eventShape.shape)),
    cost: event.cost_details,
    ...(event.recurrence?.length ? { recurrence: event.recurrence } : {}),
  };
  return { ...postRecord(kind, event, fields, etag, raw), recurrenceId: event.recurrence_id ?? null };
}

/**
 * A venue, organizer or event: its compared fields plus its slug and picture (by remote media id), and its texts
 * as the remote `answer`ed them.
 */
function postRecord(
  kind: SyncKind,
  post: { id: number; slug: string; modified_utc?: string; image: { id: number; url: string } | null },
  fields: Record<string, unknown>,
  etag: string | null,
  answer: unknown,
): RemoteRecord {
  return {
    kind,
    id: post.id,
    slug: post.slug,
    ...uidOf(answer),
    modifiedUtc: post.modified_utc ?? null,
    etag,
    fields: { ...fields, slug: post.slug, ...imageFields(post.image) },
    imageUrl: post.image?.url ?? null,
    texts: textsOf(kind, answer),
  };
}

/** What `remote-wins` takes over: the title and texts as answered (an event's cost as its text). */
function textsOf(kind: SyncKind, answer: unknown): RemoteTexts {
  const answered = answeredTexts.parse(answer);
  const currency = kind === 'event' ? answeredCurrency.parse(answer) : undefined;
  const title = (answer as Record<string, unknown>)[kind === 'event' ? 'title' : kind];
  return {
    title: typeof title === 'string' ? title : '',
    description: answered.description,
    ...(kind === 'event' ? { excerpt: answered.excerpt, cost: answered.cost } : {}),
    ...(kind === 'event' && currency ? { currency } : {}),
  };
}

/** The uid a Calendar Desk shows (a WordPress site has none): how the same record is found on every instance. */
function uidOf(answer: unknown): { uid?: string } {
  const uid = (answer as Record<string, unknown>).uid;
  return typeof uid === 'string' && uid !== '' ? { uid: uid.toLowerCase() } : {};
}

/** The picture compared by its remote media id; no key when there is none (hashes as before pictures synced). */
const imageFields = (image: { id: number } | null) => (image ? { image: image.id } : {});

/** Only the keys the shape declares (a loose parse keeps the rest of the answer too). */
function pick(record: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const wanted = new Set(
    keys.filter(
      (key) =>
        ![
          'id',
          'slug',
          'modified_utc',
          'cost_details',
          'geo_lat',
          'geo_lng',
          'image',
          'recurrence_id',
          'recurrence',
        ].includes(key),
    ),
  );
  return Object.fromEntries(Object.entries(record).filter(([key]) => wanted.has(key)));
}
