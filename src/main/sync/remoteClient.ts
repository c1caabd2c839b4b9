/**
 * The calls of the remote's REST API: what the remote is and what the account may do (verify), and the
 * list/get/find/create/update/delete of events, venues, organizers and terms, picture uploads, and WordPress
 * core's own routes where the plugin's fall short (texts, passwords). Each request goes through
 * {@link RemoteTransport} (credentials, timeouts, retries, errors).
 */
import { z } from 'zod';
import { changesPageSchema, CURSOR_EXPIRED_CODE, type ChangesPage } from '../../shared/schemas/changes';
import { ADMIN_NAMESPACE, NAMESPACE, TRIBE_NAMESPACE, WP_V2_NAMESPACE } from '../../shared/enums';
import {
  COLLECTION,
  SYNC_KINDS,
  type RemoteCurrency,
  type RemoteRecord,
  type RemoteTexts,
  type SyncKind,
} from './model';
import { toRemoteRecord } from './remoteRecords';
import { dialectOf, type RemoteDialect } from './remoteDialects';
import { isUploadedName, keptName } from './compare';
import { RemoteError } from './remoteErrors';
import { errorBody, RemoteTransport, type Answer, type TransportOptions } from './remoteTransport';
import { DEFAULT_CONCURRENCY } from './stages';
import { appendAll } from '../../shared/arrays';

export { RemoteError, type RemoteErrorCode } from './remoteErrors';
/** The client's credentials (the transport sends them). */
export type { RemoteAuth } from '../../shared/schemas/sync';

export interface RemoteOptions extends TransportOptions {
  /** REST root, e.g. `https://example.org/wp-json/`. */
  root: string;
  namespace: string;
  /** The most pages of one kind read (default {@link MAX_LIST_PAGES}). */
  maxListPages?: number;
}

const rootIndex = z.looseObject({ namespaces: z.array(z.string()) });
/** What an upload answers: WordPress' attachment (`source_url`) or Calendar Desk's `{id, url, extension}`. */
const uploadedMedia = z
  .looseObject({
    id: z.number().int().positive(),
    source_url: z.string().optional(),
    url: z.string().optional(),
  })
  .transform((media) => ({ id: media.id, url: media.source_url ?? media.url ?? '' }));
/** A media search: WordPress' attachments (`source_url`) or Calendar Desk's uploads (`file`). */
const mediaList = z.array(
  z
    .looseObject({
      id: z.number().int().positive(),
      source_url: z.string().optional(),
      file: z.string().optional(),
    })
    .transform((item) => ({ id: item.id, file: (item.source_url ?? item.file ?? '').split('/').pop()! })),
);

const raw = z.looseObject({ raw: z.string() });
const metaText = z.unknown().transform((value) => (typeof value === 'string' ? value : ''));
/**
 * A post as WordPress stores it (`context=edit`); an event's cost is in its meta, `_EventCost`, and its own
 * currency in `_EventCurrencySymbol`, `_EventCurrencyPosition` (`prefix`|`postfix`, or `suffix`) and `_EventCurrencyCode`.
 */
const storedPost = z
  .looseObject({
    title: raw,
    content: raw,
    excerpt: raw,
    meta: z
      .looseObject({
        _EventCost: z.unknown(),
        _EventCurrencySymbol: metaText,
        _EventCurrencyPosition: metaText,
        _EventCurrencyCode: metaText,
      })
      .optional(),
  })
  .transform((post) => ({
    title: post.title.raw,
    description: post.content.raw,
    excerpt: post.excerpt.raw,
    cost: typeof post.meta?._EventCost === 'string' ? post.meta._EventCost : null,
    currency: {
      symbol: post.meta?._EventCurrencySymbol ?? '',
      position:
        ({ prefix: 'prefix', postfix: 'postfix', suffix: 'postfix' } as const)[
          post.meta?._EventCurrencyPosition ?? ''
        ] ?? '',
      code: post.meta?._EventCurrencyCode ?? '',
    } satisfies RemoteCurrency,
  }));

/** What WordPress stores for a post (`context=edit`), as a record's texts; `url`: where it was read. */
function storedTextsOf(kind: SyncKind, body: unknown, url: string): RemoteTexts {
  const stored = storedPost.safeParse(body);
  if (!stored.success) {
    throw new RemoteError(
      'REMOTE_BAD_RECORD',
      `${url} did not answer with what the site stores (${stored.error.issues[0]?.path.join('.')} ${stored.error.issues[0]?.message}).`,
    );
  }
  const { title, description, excerpt, cost, currency } = stored.data;
  return { title, description, ...(kind === 'event' ? { excerpt, cost: cost ?? '', currency } : {}) };
}

/** Where a remote takes picture uploads: WordPress' media library, or a Calendar Desk's own route. */
export type MediaRoute =
  | { kind: 'wordpress'; path: `${typeof WP_V2_NAMESPACE}/media` }
  | { kind: 'calendar-desk'; path: `${typeof ADMIN_NAMESPACE}/media` };
export type PasswordRoute = 'in-body' | 'wordpress' | null;
/** What `wp/v2/tribe_events/{id}` answers about the post (its own names, not the plugin's). */
const wordPressPost = z.looseObject({
  id: z.number().int().positive(),
  status: z.string(),
  password: z.string().optional(),
  modified_gmt: z.string().optional(),
});
const wordPressUser = z.looseObject({
  username: z.string().optional(),
  slug: z.string().optional(),
  roles: z.array(z.string()),
  capabilities: z.record(z.string(), z.unknown()).optional(),
});
const capabilityNames = z.record(
  z.string(),
  z.looseObject({ capabilities: z.record(z.string(), z.string()) }),
);

/** The post type and taxonomy of each kind on WordPress with The Events Calendar. */
const POST_TYPES = { event: 'tribe_events', venue: 'tribe_venue', organizer: 'tribe_organizer' } as const;
const TAXONOMIES = { category: 'tribe_events_cat', tag: 'post_tag' } as const;

/**
 * The capabilities each kind's writes need, as The Events Calendar checks them: a post type's `edit_posts`;
 * a term the events' `edit_posts` and its taxonomy's `manage_terms`. Names come from the site when it says
 * (plugins may change them), else the plugin's defaults.
 */
function capabilitiesNeeded(types: unknown, taxonomies: unknown): Record<SyncKind, string[]> {
  const typeCaps = capabilityNames.safeParse(types).data ?? {};
  const taxonomyCaps = capabilityNames.safeParse(taxonomies).data ?? {};
  const editPosts = (type: string, fallback: string) => typeCaps[type]?.capabilities.edit_posts ?? fallback;
  const events = editPosts(POST_TYPES.event, 'edit_tribe_events');
  return {
    event: [events],
    venue: [editPosts(POST_TYPES.venue, 'edit_tribe_venues')],
    organizer: [editPosts(POST_TYPES.organizer, 'edit_tribe_organizers')],
    category: [
      events,
      taxonomyCaps[TAXONOMIES.category]?.capabilities.manage_terms ?? 'publish_tribe_events',
    ],
    tag: [events, taxonomyCaps[TAXONOMIES.tag]?.capabilities.manage_terms ?? 'manage_post_tags'],
  };
}

/** WordPress core's meta capabilities of tags and categories, as `map_meta_cap` maps them to a role's own. */
const META_CAPABILITIES: Record<string, string> = {
  manage_post_tags: 'manage_categories',
  edit_post_tags: 'manage_categories',
  delete_post_tags: 'manage_categories',
  assign_post_tags: 'edit_posts',
  edit_categories: 'manage_categories',
  delete_categories: 'manage_categories',
  assign_categories: 'edit_posts',
};
const primitiveCapability = (capability: string) => META_CAPABILITIES[capability] ?? capability;

/** WordPress roles whose events are published as sent. */
const PUBLISHING_ROLES = new Set(['administrator', 'editor', 'author']);

/** A read of one record that found it gone: 404/410, or the plugin's 403 for an event in the trash. */
const isGone = (answer: Answer) =>
  answer.status === 404 ||
  answer.status === 410 ||
  (answer.status === 403 && errorBody.safeParse(answer.body).data?.code === 'event-no-longer-available') ||
  termIdUnknown(answer);

/**
 * The plugin's term routes check that the id is a term of the taxonomy before anything else: a term deleted
 * for good answers 400 `rest_invalid_param` naming `id`, not 404.
 */
function termIdUnknown(answer: Answer): boolean {
  const error = errorBody.safeParse(answer.body).data;
  const params = (error?.data as { params?: Record<string, unknown> } | undefined)?.params;
  return (
    answer.status === 400 && error?.code === 'rest_invalid_param' && params !== undefined && 'id' in params
  );
}

/** Records asked for a page: the original's cap. */
const PAGE_SIZE = 50;
/** The most pages of one kind a sync reads (250,000 records at 50 a page): a remote with more is refused. */
export const MAX_LIST_PAGES = 5_000;

/** A total a remote claims, as a count (a whole number, at least 0), or null. */
function countOf(value: unknown): number | null {
  const count = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : null;
}

/** A record the remote sent that does not fit its kind: its remote id, a title to show, and what is wrong. */
export interface RejectedRecord {
  kind: SyncKind;
  id: number;
  title: string;
  message: string;
}

/** The remote REST API: verification, paged reads, writes (each request sent by {@link RemoteTransport}). */
export class RemoteClient {
  readonly root: string;
  readonly nsRoot: string;
  private readonly http: RemoteTransport;
  /** Where pictures are uploaded, learnt from the index by {@link verify}; null when the remote has no such route. */
  mediaRoute: MediaRoute | null = null;
  /**
   * How an event's password reaches the remote, learnt by {@link verify}: in the event's own body
   * (`post_password`, a Calendar Desk), through WordPress core's `wp/v2/tribe_events/{id}` (The Events
   * Calendar's API has no password field), or not at all.
   */
  passwordRoute: PasswordRoute = null;
  /** The WordPress account, as `login (role)`, once {@link verify} read it; null elsewhere. */
  account: string | null = null;
  /** Kinds the account may not create or change, with the capabilities it lacks (WordPress; learnt by verify). */
  readonly writeRefusals = new Map<SyncKind, string[]>();
  /** Whether the remote is another Calendar Desk, whose change feed may be asked (learnt by {@link verify}). */
  mayHaveChangeFeed = false;
  /**
   * Records the remote sent that do not fit their kind's schema (a title sent as an object, a date as a
   * number), by `kind:id`: left out of the records read, reported as failures of those records.
   */
  readonly rejected = new Map<string, RejectedRecord>();
  /** How the remote writes its records (`remoteDialects.ts`): as a Calendar Desk, or as WordPress' plugin. */
  readonly dialect: RemoteDialect;

  constructor(private readonly options: RemoteOptions) {
    this.root = options.root.endsWith('/') ? options.root : `${options.root}/`;
    this.nsRoot = `${this.root}${options.namespace.replace(/^\/|\/$/g, '')}/`;
    this.http = new RemoteTransport(this.nsRoot, options);
    this.dialect = dialectOf(options.namespace);
  }

  /**
   * One record of an answer read for comparison, or null when it does not fit its kind's schema: then it is
   * kept in {@link rejected} with the remote's words, and the rest of the sync goes on without it.
   */
  readRecord(kind: SyncKind, raw: unknown, etag: string | null = null): RemoteRecord | null {
    try {
      return toRemoteRecord(this.dialect, kind, raw, etag);
    } catch (error) {
      if (!(error instanceof RemoteError) || error.code !== 'REMOTE_BAD_RECORD') throw error;
      const answer = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
      const id = typeof answer.id === 'number' ? answer.id : 0;
      const title =
        answer[kind === 'event' ? 'title' : kind === 'venue' || kind === 'organizer' ? kind : 'name'];
      this.rejected.set(`${kind}:${id}`, {
        kind,
        id,
        title: typeof title === 'string' ? title : `${kind} ${id}`,
        message:
          `${this.root}: ${error.message} It was left out of this sync (nothing of it was stored): ` +
          'correct it on that site, then sync again.',
      });
      return null;
    }
  }

  /** The namespaces the REST root lists (read without credentials: a server that refuses wrong ones everywhere would hide what it is). */
  async namespaces(): Promise<string[]> {
    const answer = await this.http.request('GET', this.root, { anonymous: true });
    const index = rootIndex.safeParse(answer.body);
    if (answer.status >= 400 || !index.success) {
      throw new RemoteError(
        'REMOTE_NOT_THIS_API',
        `${this.root} answered HTTP ${answer.status} but is not a WordPress-style REST root (no list of namespaces). ` +
          'Give the address ending in /wp-json/.',
        answer.status,
      );
    }
    return index.data.namespaces;
  }

  /**
   * Checks, before anything is read or written, that the root is a REST API serving the namespace and that
   * the credentials work and may edit events. Each failure gets its own code and a message that says what to do.
   */
  async verify(): Promise<void> {
    const namespaces = await this.namespaces();
    const index = { data: { namespaces } };
    const namespace = this.options.namespace.replace(/^\/|\/$/g, '');
    if (!index.data.namespaces.includes(namespace)) {
      const served = index.data.namespaces;
      const advice = served.includes(TRIBE_NAMESPACE)
        ? `It is a WordPress site with The Events Calendar: use --namespace ${TRIBE_NAMESPACE}.`
        : served.includes(NAMESPACE)
          ? `It is a Calendar Desk: use --namespace ${NAMESPACE} (the default).`
          : served.includes(WP_V2_NAMESPACE)
            ? 'It is a WordPress site without The Events Calendar: activate that plugin on the site (Plugins), then run the sync again.'
            : `It serves ${served.join(', ') || 'no namespace at all'}: check the address (it ends in /wp-json/).`;
      throw new RemoteError(
        'REMOTE_NOT_THIS_API',
        `${this.root} does not serve the ${namespace} namespace. ${advice}`,
      );
    }
    this.mayHaveChangeFeed = namespace === NAMESPACE;
    this.mediaRoute = index.data.namespaces.includes(WP_V2_NAMESPACE)
      ? { kind: 'wordpress', path: `${WP_V2_NAMESPACE}/media` }
      : namespace === NAMESPACE
        ? { kind: 'calendar-desk', path: `${ADMIN_NAMESPACE}/media` }
        : null;
    this.passwordRoute =
      namespace === NAMESPACE
        ? 'in-body'
        : index.data.namespaces.includes(WP_V2_NAMESPACE)
          ? 'wordpress'
          : null;
    if (!this.options.auth) {
      throw new RemoteError(
        'REMOTE_NO_CREDENTIALS',
        'No credentials for the remote: give --token-file (or $CALENDAR_DESK_REMOTE_TOKEN), or --user with --password-file (or $CALENDAR_DESK_REMOTE_PASSWORD).',
      );
    }
    // Drafts are listed only to users who may edit events: the cheapest read that proves both login and role.
    const probe = await this.http.request('GET', `events?per_page=1&status=draft`);
    const probeError = errorBody.safeParse(probe.body).data;
    if (probe.status === 401 && !probeError?.code.startsWith('rest_forbidden')) {
      throw this.http.errorOf(probe, `${this.nsRoot}events`);
    }
    // Who may not edit events may not filter by status: 400 on `status` (this app), 401/403 (WordPress).
    const statusRefused = probe.status === 400 && JSON.stringify(probeError?.data ?? {}).includes('"status"');
    if (probe.status === 401 || probe.status === 403 || statusRefused) {
      throw new RemoteError(
        'REMOTE_INSUFFICIENT_ROLE',
        'The remote accepted the credentials, but that user may not edit events. Use an editor or administrator account.',
        probe.status,
      );
    }
    if (probe.status >= 400) throw this.http.errorOf(probe, `${this.nsRoot}events`);
    if (index.data.namespaces.includes(WP_V2_NAMESPACE)) await this.checkWordPressRole();
  }

  /**
   * On WordPress, contributors also pass the probe above, but what they publish silently becomes a draft and
   * they cannot edit others' events: their roles are read from `wp/v2/users/me` when the site answers it.
   * Its capabilities, with the capability each kind needs (`wp/v2/types` and `wp/v2/taxonomies`), tell which
   * kinds the account may not write ({@link writeRefusals}): an author may not create tags, for one.
   */
  private async checkWordPressRole(): Promise<void> {
    const [answer, types, taxonomies] = await Promise.all([
      this.http.request('GET', `${this.root}${WP_V2_NAMESPACE}/users/me?context=edit`),
      this.http.request('GET', `${this.root}${WP_V2_NAMESPACE}/types?context=edit`),
      this.http.request('GET', `${this.root}${WP_V2_NAMESPACE}/taxonomies?context=edit`),
    ]);
    const me = wordPressUser.safeParse(answer.body);
    if (answer.status !== 200 || !me.success) return;
    const roles = me.data.roles.join(', ') || 'without a role';
    this.account = `${me.data.username ?? me.data.slug ?? 'the remote user'} (${roles})`;
    if (!me.data.roles.some((role) => PUBLISHING_ROLES.has(role))) {
      throw new RemoteError(
        'REMOTE_INSUFFICIENT_ROLE',
        `The remote user is ${roles}: what it sends would stay drafts. ` +
          'Use an author, editor or administrator account.',
        403,
      );
    }
    if (!me.data.capabilities) return;
    const needed = capabilitiesNeeded(
      types.status === 200 ? types.body : undefined,
      taxonomies.status === 200 ? taxonomies.body : undefined,
    );
    const has = (capability: string) => me.data.capabilities?.[primitiveCapability(capability)] === true;
    for (const kind of SYNC_KINDS) {
      const missing = needed[kind].filter((capability) => !has(capability)).map(primitiveCapability);
      if (missing.length > 0) this.writeRefusals.set(kind, missing);
    }
  }

  /**
   * Every record of a kind, 50 a page (the original's cap), read a few pages at a time until a page with fewer
   * (or none). The totals a remote sends (either header family, or the body) only bound the walk, never start
   * it: a remote claiming a billion pages is read as far as it has records, and one that still has full pages
   * after {@link MAX_LIST_PAGES} is refused rather than read for days.
   */
  async list(kind: SyncKind, filter = ''): Promise<RemoteRecord[]> {
    const first = await this.listPage(kind, 1, filter);
    const records = [...first.records];
    if (first.received < PAGE_SIZE) return records;
    const bound = Math.min(
      first.totalPages ?? Infinity,
      first.total === null ? Infinity : Math.ceil(first.total / PAGE_SIZE),
    );
    const ceiling = this.options.maxListPages ?? MAX_LIST_PAGES;
    const seen = new Set(records.map((record) => record.id));
    for (let next = 2, full = true; full && next <= bound; next += DEFAULT_CONCURRENCY) {
      if (next > ceiling) throw this.tooManyPages(kind, ceiling);
      const numbers = Array.from(
        { length: Math.min(DEFAULT_CONCURRENCY, bound - next + 1, ceiling - next + 1) },
        (_, index) => next + index,
      );
      const pages = await Promise.all(numbers.map((page) => this.listPage(kind, page, filter)));
      for (const [index, page] of pages.entries()) {
        // A full page of records already read: the remote ignores `page` and would be read for ever.
        if (page.records.length > 0 && page.records.every((record) => seen.has(record.id))) {
          throw new RemoteError(
            'REMOTE_NOT_THIS_API',
            `${this.nsRoot}${COLLECTION[kind]} answered page ${numbers[index]} with the same ${COLLECTION[kind]} as ` +
              'an earlier page: it does not page its list, so it cannot be read in full and nothing was changed. ' +
              'Check the address (it ends in /wp-json/).',
          );
        }
        for (const record of page.records) seen.add(record.id);
        appendAll(records, page.records);
        if (page.received < PAGE_SIZE) {
          full = false;
          break;
        }
      }
    }
    return records;
  }

  /** The error of a list longer than a sync reads. */
  private tooManyPages(kind: SyncKind, ceiling: number): RemoteError {
    return new RemoteError(
      'REMOTE_TOO_LARGE',
      `${this.nsRoot}${COLLECTION[kind]} lists more than ${(ceiling * PAGE_SIZE).toLocaleString('en')} ` +
        `${COLLECTION[kind]} (${ceiling.toLocaleString('en')} pages), more than Calendar Desk syncs, so ` +
        'nothing was changed. Check the address (it ends in /wp-json/) and that the site is the calendar you meant.',
    );
  }

  /**
   * One page of a kind's archive with the totals it claims (null when absent or not a count); past the last
   * page, none (WordPress answers 400 there, the original and Calendar Desk 404).
   */
  private async listPage(
    kind: SyncKind,
    page: number,
    filter: string,
  ): Promise<{ records: RemoteRecord[]; received: number; totalPages: number | null; total: number | null }> {
    const collection = COLLECTION[kind];
    const query =
      kind === 'event'
        ? // The default window hides past events: ask for all time, hidden ones included.
          'start_date=1900-01-01%2000:00:00&end_date=2200-12-31%2023:59:59&show_hidden=true&'
        : kind === 'category' || kind === 'tag'
          ? 'hide_empty=false&'
          : '';
    const edit = this.editContext(kind);
    const url = `${collection}?${query}${filter}${edit ? `${edit}&` : ''}per_page=${PAGE_SIZE}&page=${page}`;
    const answer = await this.http.request('GET', url);
    if (answer.status >= 400) {
      if (page > 1 && (answer.status === 400 || answer.status === 404))
        return { records: [], received: 0, totalPages: null, total: null };
      throw this.http.errorOf(answer, `${this.nsRoot}${url}`);
    }
    const body = answer.body as Record<string, unknown> | undefined;
    const items = body?.[collection];
    if (!Array.isArray(items)) {
      throw new RemoteError(
        'REMOTE_NOT_THIS_API',
        `${this.nsRoot}${url} did not answer with a list of ${collection}.`,
      );
    }
    return {
      // A record that does not fit is left out (see readRecord); `received` still counts it, so a page with one
      // is not taken for the last.
      records: items
        .map((item) => this.readRecord(kind, item))
        .filter((record): record is RemoteRecord => record !== null),
      received: items.length,
      totalPages: countOf(
        answer.headers.get('x-wp-totalpages') ?? answer.headers.get('x-tec-totalpages') ?? body?.total_pages,
      ),
      total: countOf(answer.headers.get('x-wp-total') ?? answer.headers.get('x-tec-total') ?? body?.total),
    };
  }

  /** The rest of a series on a remote that has series (a Calendar Desk): the events whose head is `headId`. */
  async seriesOf(headId: number): Promise<RemoteRecord[]> {
    return this.list('event', `post_parent=${headId}&`);
  }

  /**
   * One page of a Calendar Desk's change feed since `since` (null: everything that exists now). `'expired'`
   * when the remote answers that the cursor is too old (or not of its calendar): read everything again;
   * `'unavailable'` when it has no feed or does not show it to this account (an older version, an author).
   */
  async changesPage(since: string | null, limit: number): Promise<ChangesPage | 'expired' | 'unavailable'> {
    const query = `limit=${limit}${since === null ? '' : `&since=${encodeURIComponent(since)}`}`;
    const url = `${this.root}${ADMIN_NAMESPACE}/changes?${query}`;
    const answer = await this.http.request('GET', url);
    if (answer.status === 410 && errorBody.safeParse(answer.body).data?.code === CURSOR_EXPIRED_CODE)
      return 'expired';
    if ([401, 403, 404, 405].includes(answer.status)) return 'unavailable';
    if (answer.status >= 400) throw this.http.errorOf(answer, url);
    const page = changesPageSchema.safeParse(answer.body);
    if (!page.success) {
      throw new RemoteError(
        'REMOTE_NOT_THIS_API',
        `${url} did not answer with a list of changes (${page.error.issues[0]?.path.join('.')}: ${page.error.issues[0]?.message}).`,
      );
    }
    return page.data;
  }

  /**
   * One record by remote id, with its ETag; null when it is gone: 404/410, trashed, or the plugin's 403
   * `event-no-longer-available` for an event in the trash.
   */
  async get(kind: SyncKind, id: number): Promise<RemoteRecord | null> {
    const edit = this.editContext(kind);
    const path = `${COLLECTION[kind]}/${id}${edit ? `?${edit}` : ''}`;
    const answer = await this.http.request('GET', path);
    if (isGone(answer)) return null;
    if (answer.status >= 400) throw this.http.errorOf(answer, `${this.nsRoot}${path}`);
    const record = this.readRecord(kind, answer.body, answer.headers.get('etag'));
    return record === null || record.fields.status === 'trash' ? null : record;
  }

  /**
   * A record by slug, asked for directly (events, venues, organizers: `…/by-slug/{slug}`; terms: `?slug=`), so
   * that one hidden from listings is found too and a lost create answer costs one request, not the archive.
   */
  async findBySlug(kind: SyncKind, slug: string): Promise<RemoteRecord | null> {
    if (slug === '') return null;
    if (kind === 'category' || kind === 'tag') {
      const path = `${COLLECTION[kind]}?slug=${encodeURIComponent(slug)}&hide_empty=false`;
      const answer = await this.http.request('GET', path);
      if (answer.status >= 400) throw this.http.errorOf(answer, `${this.nsRoot}${path}`);
      const items = (answer.body as Record<string, unknown> | undefined)?.[COLLECTION[kind]];
      if (!Array.isArray(items)) {
        throw new RemoteError(
          'REMOTE_NOT_THIS_API',
          `${this.nsRoot}${path} did not answer with a list of ${COLLECTION[kind]}.`,
        );
      }
      const found = items.map((item) => this.readRecord(kind, item)).find((record) => record?.slug === slug);
      return found ?? null;
    }
    const edit = this.editContext(kind);
    const path = `${COLLECTION[kind]}/by-slug/${encodeURIComponent(slug)}${edit ? `?${edit}` : ''}`;
    const answer = await this.http.request('GET', path);
    // No such slug: the plugin answers 400 rest_invalid_param on `slug` (its check finds no post).
    const slugRefused =
      answer.status === 400 &&
      JSON.stringify(errorBody.safeParse(answer.body).data?.data ?? {}).includes('"slug"');
    if (isGone(answer) || slugRefused) return null;
    if (answer.status >= 400) throw this.http.errorOf(answer, `${this.nsRoot}${path}`);
    const record = this.readRecord(kind, answer.body, answer.headers.get('etag'));
    return record === null || record.fields.status === 'trash' || record.slug !== slug ? null : record;
  }

  /** POST a new record. Never retried blindly: REMOTE_UNKNOWN_OUTCOME tells the caller to look it up first. */
  async create(kind: SyncKind, body: Record<string, unknown>): Promise<RemoteRecord> {
    const answer = await this.http.request('POST', COLLECTION[kind], { body, retry: false });
    if (answer.status >= 400) throw this.http.errorOf(answer, `${this.nsRoot}${COLLECTION[kind]}`);
    return toRemoteRecord(this.dialect, kind, answer.body, answer.headers.get('etag'));
  }

  async update(
    kind: SyncKind,
    id: number,
    body: Record<string, unknown>,
    ifMatch: string | null,
  ): Promise<RemoteRecord> {
    const path = `${COLLECTION[kind]}/${id}`;
    const answer = await this.http.request('POST', path, {
      body,
      headers: ifMatch ? { 'If-Match': ifMatch } : {},
    });
    if (answer.status >= 400) throw this.http.errorOf(answer, `${this.nsRoot}${path}`);
    return toRemoteRecord(this.dialect, kind, answer.body, answer.headers.get('etag'));
  }

  /**
   * Uploads a picture file (raw body, its name in Content-Disposition) and answers the remote media id. Never
   * retried blindly: REMOTE_UNKNOWN_OUTCOME tells the caller to look it up ({@link findUploadedMedia}) first.
   */
  async uploadMedia(bytes: Buffer, fileName: string, type: string): Promise<{ id: number; url: string }> {
    const route = this.mediaRoute;
    if (!route) {
      throw new RemoteError(
        'REMOTE_NO_MEDIA_UPLOAD',
        `${this.root} offers no picture upload (neither ${WP_V2_NAMESPACE}/media of WordPress nor ${ADMIN_NAMESPACE}/media of ` +
          'Calendar Desk), so pictures from this computer cannot be sent. Give the picture by its web address ' +
          'instead, or remove it from the record.',
      );
    }
    const url = `${this.root}${route.path}`;
    const answer = await this.http.request('POST', url, {
      body: bytes,
      headers: {
        'Content-Type': type,
        'Content-Disposition': `attachment; filename="${fileName}"`,
      },
      retry: false,
    });
    if (answer.status === 404) {
      throw new RemoteError(
        'REMOTE_NO_MEDIA_UPLOAD',
        `${url} answered HTTP 404: this remote takes no picture uploads. Give the picture by its web address instead, or remove it from the record.`,
        404,
      );
    }
    if (answer.status === 403) {
      const error = this.http.errorOf(answer, url);
      throw new RemoteError(
        'REMOTE_INSUFFICIENT_ROLE',
        `The remote refused the picture upload (${error.message}): the remote user may not upload files. Use an author, editor or administrator account.`,
        403,
        error.remoteCode,
        error.data,
      );
    }
    if (answer.status >= 400) throw this.http.errorOf(answer, url);
    const media = uploadedMedia.safeParse(answer.body);
    if (!media.success) {
      throw new RemoteError(
        'REMOTE_BAD_RECORD',
        `${url} answered HTTP ${answer.status} without the id of the uploaded picture (${media.error.issues[0]?.path.join('.')} ${media.error.issues[0]?.message}).`,
        answer.status,
      );
    }
    return media.data;
  }

  /**
   * The remote media id of a picture uploaded under `fileName` whose answer was lost, or null: searched in
   * WordPress' media library or a Calendar Desk's uploads (null from a Calendar Desk too old to search).
   */
  async findUploadedMedia(fileName: string): Promise<number | null> {
    const route = this.mediaRoute;
    if (!route) return null;
    const { base } = keptName(fileName, route.kind);
    const url = `${this.root}${route.path}?search=${encodeURIComponent(base)}&per_page=100`;
    const answer = await this.http.request('GET', url);
    if (route.kind === 'calendar-desk' && (answer.status === 404 || answer.status === 405)) return null;
    if (answer.status >= 400) throw this.http.errorOf(answer, url);
    const items = mediaList.safeParse(answer.body);
    if (!items.success) {
      throw new RemoteError('REMOTE_NOT_THIS_API', `${url} did not answer with a list of media items.`);
    }
    return items.data.find((item) => isUploadedName(fileName, item.file, route.kind))?.id ?? null;
  }

  /** Whether the remote is another Calendar Desk (its own namespace): it stores costs and currencies as typed. */
  get isCalendarDesk(): boolean {
    return this.dialect === 'calendar-desk';
  }

  /**
   * `context=edit` for an event, venue or organizer on a Calendar Desk: it then answers them as stored to an
   * editor (an event's cost as typed, CONTRACT §2), as its change feed does; '' elsewhere.
   */
  private editContext(kind: SyncKind): string {
    return this.isCalendarDesk && kind !== 'category' && kind !== 'tag' ? 'context=edit' : '';
  }

  /** Whether the remote is a WordPress site (it serves WordPress' own `wp/v2` routes beside the plugin's). */
  get isWordPress(): boolean {
    return this.mediaRoute?.kind === 'wordpress';
  }

  /** WordPress core's route of one event, venue or organizer (`wp/v2/tribe_events/{id}`…), beside the plugin's. */
  private wordPressPostUrl(kind: SyncKind, id: number): string {
    const type = (POST_TYPES as Partial<Record<SyncKind, string>>)[kind];
    if (!type) throw new Error(`a ${kind} is not a WordPress post`);
    return `${this.root}${WP_V2_NAMESPACE}/${type}/${id}`;
  }

  /**
   * Empties the description and/or excerpt of an event, venue or organizer through WordPress' own route
   * (`wp/v2/tribe_events/{id}`: `content`, `excerpt`): the plugin's route refuses `""` for an event's and
   * ignores it for a venue's or organizer's. Answers the record as the plugin shows it afterwards.
   */
  async clearTexts(kind: SyncKind, id: number, fields: ('description' | 'excerpt')[]): Promise<RemoteRecord> {
    const url = this.wordPressPostUrl(kind, id);
    const body = Object.fromEntries(
      fields.map((field) => [field === 'description' ? 'content' : 'excerpt', '']),
    );
    const answer = await this.http.request('POST', url, { body });
    if (answer.status >= 400) {
      const error = this.http.errorOf(answer, url);
      throw new RemoteError(
        error.code,
        `The site kept the old ${fields.join(' and ')}: emptying it goes through ${url}, which refused (${error.message}). ` +
          'Empty it on the site, or ask its administrator for an account that may edit it there.',
        error.status,
        error.remoteCode,
        error.data,
      );
    }
    const record = await this.get(kind, id);
    if (!record)
      throw new RemoteError('REMOTE_BAD_RECORD', `${this.nsRoot}${COLLECTION[kind]}/${id} is gone.`);
    return record;
  }

  /**
   * Writes an event's own currency into its meta through WordPress' own route (`wp/v2/tribe_events/{id}`:
   * `_EventCurrencySymbol`, `_EventCurrencyPosition`, `_EventCurrencyCode`, which the plugin shows it in), with
   * its cost text as sent (the plugin works the cost out again on that route). The plugin's own route reads a
   * currency from the cost text alone, and none from `€15 - €25` or `€8,50`. Answers the event as the plugin
   * shows it afterwards (`shown`, as it answered before).
   */
  async setWordPressCurrency(
    shown: RemoteRecord,
    cost: string | null,
    currency: RemoteCurrency,
  ): Promise<RemoteRecord> {
    const id = shown.id;
    const url = this.wordPressPostUrl('event', id);
    const meta = {
      ...(cost !== null ? { _EventCost: cost } : {}),
      _EventCurrencySymbol: currency.symbol,
      _EventCurrencyPosition: currency.position,
      _EventCurrencyCode: currency.code,
    };
    const answer = await this.http.request('POST', url, { body: { meta } });
    if (answer.status >= 400) {
      const error = this.http.errorOf(answer, url);
      throw new RemoteError(
        error.code,
        `The site shows its own currency for this event's cost instead of ${currency.symbol}: setting it goes ` +
          `through ${url}, which refused (${error.message}). Set the currency of the event on the site, or ask ` +
          'its administrator for an account that may edit it there.',
        error.status,
        error.remoteCode,
        error.data,
      );
    }
    // Nothing the sync compares changed: the event as shown before, with its currency and new modification
    // time (the post's, which the plugin shows as `modified_utc`), without reading it again.
    const post = wordPressPost.safeParse(answer.body);
    if (post.success && post.data.modified_gmt)
      return {
        ...shown,
        modifiedUtc: post.data.modified_gmt.replace('T', ' '),
        ...(shown.texts ? { texts: { ...shown.texts, currency } } : {}),
      };
    const record = await this.get('event', id);
    if (!record) throw new RemoteError('REMOTE_BAD_RECORD', `${this.nsRoot}events/${id} is gone.`);
    return record;
  }

  /**
   * What WordPress stores for an event, venue or organizer (`wp/v2/{type}/{id}?context=edit`): its title,
   * description and excerpt as written and an event's cost as entered. The plugin's route shows them formatted
   * (paragraphs added, entities, a currency symbol), which is no copy to take over (`remote-wins`).
   */
  async storedTexts(kind: SyncKind, id: number): Promise<RemoteTexts> {
    const url = `${this.wordPressPostUrl(kind, id)}?context=edit`;
    const answer = await this.http.request('GET', url);
    if (answer.status >= 400) throw this.http.errorOf(answer, url);
    return storedTextsOf(kind, answer.body, url);
  }

  /**
   * {@link storedTexts} of several records of a kind in one request (`wp/v2/{type}?include=…&context=edit`, at
   * most 100): a page of imports reads them at once. A record the answer leaves out (or one that does not
   * fit) is not in the map: the caller reads it alone.
   */
  async storedTextsOfMany(kind: SyncKind, ids: number[]): Promise<Map<number, RemoteTexts>> {
    const found = new Map<number, RemoteTexts>();
    if (ids.length === 0) return found;
    const type = (POST_TYPES as Partial<Record<SyncKind, string>>)[kind];
    if (!type) throw new Error(`a ${kind} is not a WordPress post`);
    const url =
      `${this.root}${WP_V2_NAMESPACE}/${type}?context=edit&status=any&per_page=${ids.length}` +
      `&include=${ids.slice(0, 100).join(',')}`;
    const answer = await this.http.request('GET', url);
    if (answer.status >= 400 || !Array.isArray(answer.body)) return found;
    for (const item of answer.body as unknown[]) {
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof id !== 'number' || !ids.includes(id)) continue;
      try {
        found.set(id, storedTextsOf(kind, item, url));
      } catch {
        // Read alone by the caller, which reports it.
      }
    }
    return found;
  }

  /**
   * Whether a picture uploaded earlier is no longer on the remote (deleted there): WordPress answers 404 for its
   * media item. A Calendar Desk has no read of one upload: there a refused picture id counts as gone.
   */
  async mediaGone(remoteMediaId: number): Promise<boolean> {
    if (this.mediaRoute?.kind !== 'wordpress') return true;
    const url = `${this.root}${this.mediaRoute.path}/${remoteMediaId}`;
    const answer = await this.http.request('GET', url);
    if (answer.status === 404 || answer.status === 410) return true;
    if (answer.status >= 400) throw this.http.errorOf(answer, url);
    return false;
  }

  /**
   * Sets an event's password (and, with it, its status) through WordPress core's route for the plugin's post
   * type: the one way a password reaches The Events Calendar. Answers the post's status and modified time
   * (`Y-m-d H:i:s` UTC, as the plugin's `modified_utc`).
   */
  async setWordPressEventPassword(
    id: number,
    password: string,
    status?: string,
  ): Promise<{ status: string; modifiedUtc: string | null }> {
    const url = this.wordPressPostUrl('event', id);
    const answer = await this.http.request('POST', url, {
      body: { password, ...(status ? { status } : {}) },
    });
    if (answer.status >= 400) {
      const error = this.http.errorOf(answer, url);
      if (answer.status !== 401 && answer.status !== 403) throw error;
      throw new RemoteError(
        'REMOTE_INSUFFICIENT_ROLE',
        `The site did not let this account set the event's password (${error.message.replace(/ \(HTTP .*$/, '')}): ` +
          'only editors and administrators may change any event there, authors only their own. ' +
          'Sync with an editor or administrator account.',
        answer.status,
        error.remoteCode,
        error.data,
      );
    }
    const post = wordPressPost.safeParse(answer.body);
    if (!post.success || (post.data.password !== undefined && post.data.password !== password)) {
      throw new RemoteError(
        'REMOTE_BAD_RECORD',
        `${url} answered HTTP ${answer.status} without the event's new password: it may not be protected.`,
        answer.status,
      );
    }
    return {
      status: post.data.status,
      modifiedUtc: post.data.modified_gmt ? post.data.modified_gmt.replace('T', ' ') : null,
    };
  }

  /** Deletes (trashes) a record; one already gone counts as deleted. */
  async delete(kind: SyncKind, id: number, ifMatch: string | null): Promise<void> {
    const path = `${COLLECTION[kind]}/${id}${kind === 'category' || kind === 'tag' ? '?force=true' : ''}`;
    const answer = await this.http.request('DELETE', path, {
      headers: ifMatch ? { 'If-Match': ifMatch } : {},
    });
    if (answer.status === 404 || answer.status === 410) return;
    if (answer.status >= 400) throw this.http.errorOf(answer, `${this.nsRoot}${path}`);
  }
}
