/**
 * Carries out one planned operation (create, adopt, update, delete, accept, pull, unlink) with its checkpoint
 * in the links: a create never duplicates (a lost answer is looked up, an existing term adopted), an update
 * refused by If-Match becomes a late conflict, a pull writes the remote's version into the local calendar.
 */
import type { Link, LocalRecord, Operation, RemoteRecord, RemoteTexts } from '../model';
import { linkKey } from '../model';
import { REMOTE_GONE, sentAgainWhenFound } from '../planner';
import { RemoteError } from '../remoteClient';
import {
  importEventsIntoLocal,
  importIntoLocal,
  pullIntoLocal,
  trashLocal,
  type LocalMediaOf,
} from '../pull';
import { localRecordOf } from '../localRecords';
import { takeLinkedPostUid } from '../../core/linkedPosts';
import { RecordProblem } from '../eventPassword';
import { linkFor, type ExecuteContext } from './context';
import type { RunPictures } from './pictures';
import { requestBody, takeEmptyTexts } from './requests';
import { isRefusal, sendOnce } from './sendOnce';
import { withShownCurrency } from './currency';
import {
  changedOnHeadAlone,
  coveredByHead,
  differingFields,
  isSeriesHead,
  linkOccurrences,
  linkRemoteSeries,
  refreshHeadBaseline,
  sendRuleApart,
  takesSeries,
} from './series';
import { textOf } from '../../core/values';

/** The remote refused an update because the record changed there meanwhile (If-Match): a conflict, not a failure. */
export class LateConflictError extends Error {}

/** The operations of one run, sharing its context and its pictures. */
export class RunOperations {
  constructor(
    private readonly context: ExecuteContext,
    private readonly pictures: RunPictures,
  ) {}

  /** Carries out one operation (its checkpoint included); answers whether it adopted a remote record. */
  async perform(operation: Operation): Promise<'done' | 'adopted'> {
    const { client, links, options, passwords, summary } = this.context;
    const pictures = this.pictures;
    const record = options.local.get(linkKey(operation.kind, operation.localId));
    let outcome: 'done' | 'adopted' = 'done';
    if (
      (operation.type === 'create' || operation.type === 'update') &&
      record &&
      coveredByHead(this.context, record)
    )
      return outcome;
    if (operation.type === 'create' && record && this.linkedByHead(record)) {
      // Made by the remote with its series, linked by the head: an occurrence changed on its own is sent.
      await this.update(record, links.get(record.kind, record.id)!.remoteId!, true);
      summary.updated++;
      return outcome;
    }
    switch (operation.type) {
      case 'create': {
        const { remote, adopted, found } = await pictures.withPicture(record!, () =>
          this.createOnce(record!),
        );
        await this.refuseReused(record!, remote, adopted || found === true);
        if (!adopted) await pictures.rememberImage(record!, remote);
        await links
          .put(linkFor(operation.kind, operation.localId, adopted ? null : record!.revision, remote))
          .catch(async (error: unknown) => {
            // Not linked: the next sync sends it anew (the create's pending link would have it looked up).
            await links.remove(operation.kind, operation.localId);
            throw error;
          });
        if (adopted) {
          // An existing term took the create (`term_exists`): it is adopted and brought to the local version.
          await this.update(record!, remote.id, true);
          summary.adopted++;
          outcome = 'adopted';
        } else {
          // Stored by a try whose answer was lost, perhaps part-way: sent again, as the planner does for the
          // lost creates of an earlier run.
          if (found && sentAgainWhenFound(operation.kind)) await this.update(record!, remote.id, true);
          summary.created++;
        }
        if (isSeriesHead(record!) && takesSeries(this.context))
          await linkOccurrences(this.context, record!, links.get(record!.kind, record!.id)!.remoteId!);
        break;
      }
      case 'adopt': {
        const remote = options.remote.get(linkKey(operation.kind, operation.remoteId))!;
        await pictures.adoptPicture(record!, remote);
        await links.put(linkFor(operation.kind, operation.localId, record!.revision, remote));
        await this.takeUid(operation.kind, operation.localId, remote);
        if (operation.thenUpdate || passwords.needsUpdate(record!))
          await this.update(record!, operation.remoteId, true);
        summary.adopted++;
        outcome = 'adopted';
        break;
      }
      case 'update':
        // A series head without If-Match: a split sent before it in this run (scope following on one of its
        // occurrences there) changed its rule there; the plan has already checked it for changes made there.
        await this.update(
          record!,
          operation.remoteId,
          operation.force || (isSeriesHead(record!) && takesSeries(this.context)),
        );
        summary.updated++;
        if (isSeriesHead(record!) && takesSeries(this.context))
          await linkOccurrences(this.context, record!, operation.remoteId);
        break;
      case 'delete': {
        const link = links.get(operation.kind, operation.localId);
        // An event of a series as a head's update (see there): the series' edits sent before it in this run (a
        // deleted head's next occurrence made the head, splitting the series there) changed it there.
        const inSeries = record?.series !== undefined && takesSeries(this.context);
        await client.delete(
          operation.kind,
          operation.remoteId,
          operation.force || inSeries ? null : (link?.remoteEtag ?? null),
        );
        await links.remove(operation.kind, operation.localId);
        summary.deleted++;
        await refreshHeadBaseline(this.context, record);
        break;
      }
      case 'accept': {
        const remote = options.remote.get(linkKey(operation.kind, operation.remoteId));
        const link = links.get(operation.kind, operation.localId)!;
        await links.put(
          remote
            ? linkFor(operation.kind, operation.localId, record?.revision ?? null, remote)
            : { ...link, pushedRevision: record?.revision ?? null, remoteHash: REMOTE_GONE },
        );
        break;
      }
      case 'pull':
        await this.pull(operation);
        summary.pulled++;
        break;
      case 'merge':
        await this.merge(operation);
        if (operation.toLocal.length > 0) summary.pulled++;
        if (operation.toRemote.length > 0) summary.updated++;
        break;
      case 'import':
        await this.importRecord(operation);
        summary.imported++;
        break;
      case 'trash':
        // An occurrence its series' new rule taken from the remote earlier in this run already put there.
        if (this.alreadyTrashed(operation)) {
          await links.remove(operation.kind, operation.localId);
          summary.trashed++;
          break;
        }
        await trashLocal(
          options.store,
          operation.kind,
          operation.localId,
          options.now ?? new Date(),
          options.caller,
        );
        await links.remove(operation.kind, operation.localId);
        summary.trashed++;
        break;
      case 'unlink':
        if (links.get(operation.kind, operation.localId))
          await links.remove(operation.kind, operation.localId);
        break;
    }
    return outcome;
  }

  /**
   * A create of a venue or organizer that the site answered with one it already had (listed when the plan
   * read the site; The Events Calendar reuses them by title): refused and not linked, so that record's fields
   * are never copied over this one. `known`: a term adopted or a lost answer found, which is that record.
   */
  private async refuseReused(record: LocalRecord, remote: RemoteRecord, known: boolean): Promise<void> {
    if (known || (record.kind !== 'venue' && record.kind !== 'organizer')) return;
    if (!this.context.options.remote.has(linkKey(record.kind, remote.id))) return;
    await this.context.links.remove(record.kind, record.id);
    const name = textOf(remote.fields[record.kind]);
    throw new RecordProblem(
      'SYNC_REMOTE_REUSED',
      `The site answered with its ${record.kind} "${name}" (id ${remote.id}), which it already had, instead of ` +
        `creating this one: it takes a ${record.kind} of the same name as that one. Rename this one, or run ` +
        'the sync with --keep-apart, and sync again.',
    );
  }

  /** Whether the local record of an operation is in the trash now. */
  private alreadyTrashed(operation: Operation): boolean {
    return (
      operation.kind === 'event' &&
      this.context.options.store.events.get(operation.localId)?.status === 'trash'
    );
  }

  /** An occurrence the remote made with its series, linked when the head was sent (its create is not needed). */
  private linkedByHead(record: LocalRecord): boolean {
    if (!takesSeries(this.context) || !record.series || isSeriesHead(record)) return false;
    return (this.context.links.get(record.kind, record.id)?.remoteId ?? null) !== null;
  }

  /**
   * A create that never duplicates: an unknown outcome is looked up by slug before the next try (`found`: it
   * was stored, the answer lost).
   */
  private async createOnce(
    record: LocalRecord,
  ): Promise<{ remote: RemoteRecord; adopted: boolean; found?: boolean }> {
    const { client, links, passwords } = this.context;
    const sent = await requestBody(this.context, this.pictures, record, true);
    const protect = passwords.forCreate(record, sent);
    await links.put({
      kind: record.kind,
      localId: record.id,
      remoteId: null,
      pushedRevision: null,
      remoteModifiedUtc: null,
      remoteEtag: null,
      remoteHash: null,
    });
    const created = await sendOnce<{ remote: RemoteRecord; adopted: boolean; found?: boolean }>(
      this.context,
      {
        send: async () => ({ remote: await client.create(record.kind, sent), adopted: false }),
        // A term of that name is already there: it is adopted.
        recover: async (error) => {
          if (error.remoteCode !== 'term_exists') return null;
          const termId = Number(error.data.term_id);
          const existing = Number.isInteger(termId) ? await client.get(record.kind, termId) : null;
          return existing ? { remote: existing, adopted: true } : null;
        },
        refused: isRefusal,
        forget: () => links.remove(record.kind, record.id),
        lookUp: async () => {
          const found = await client.findBySlug(record.kind, record.slug);
          return found ? { remote: found, adopted: false, found: true } : null;
        },
      },
    );
    if (!created.adopted)
      created.remote = await withShownCurrency(this.context, record, sent, created.remote);
    if (!protect || created.adopted) return created;
    // Created as a draft: linked (to be updated, password first, should the next step not happen) before it
    // gets its password and status.
    await links.put(linkFor(record.kind, record.id, null, created.remote));
    return { ...created, remote: await protect(created.remote) };
  }

  /**
   * Sends the local version of a record. `If-Match` is the ETag the link last saw (none when `force`), or
   * `ifMatch` when given: the ETag of the remote version a merge was made with.
   */
  private async update(
    record: LocalRecord,
    remoteId: number,
    force: boolean,
    ifMatch?: string | null,
  ): Promise<void> {
    const { client, links, passwords } = this.context;
    const link = links.get(record.kind, record.id);
    let precondition = ifMatch !== undefined ? ifMatch : force ? null : (link?.remoteEtag ?? null);
    try {
      precondition = await sendRuleApart(this.context, record, remoteId, precondition);
      let emptied: ('description' | 'excerpt')[] = [];
      let answer = await this.pictures.withPicture(record, async () => {
        const sent = await requestBody(this.context, this.pictures, record);
        await passwords.beforeUpdate(record, remoteId, sent);
        // A WordPress site's plugin refuses or ignores "" there: those are emptied through wp/v2 after.
        emptied = client.isWordPress ? takeEmptyTexts(sent) : [];
        return withShownCurrency(
          this.context,
          record,
          sent,
          await client.update(record.kind, remoteId, sent, precondition),
        );
      });
      const stale = emptied.filter((field) => answer.fields[field] !== '');
      if (stale.length > 0) answer = await client.clearTexts(record.kind, remoteId, stale);
      await passwords.afterUpdate(record, remoteId);
      await this.pictures.rememberImage(record, answer);
      await links.put(linkFor(record.kind, record.id, record.revision, answer));
    } catch (error) {
      if (error instanceof RemoteError && error.status === 412) {
        this.context.lateConflicts.push({
          kind: record.kind,
          localId: record.id,
          remoteId,
          reason: 'both-changed',
          title: String(
            record.fields.title ?? record.fields.name ?? record.fields.venue ?? record.fields.organizer,
          ),
          diff: [],
        });
        throw new LateConflictError(
          'Changed on the remote while the sync ran: run the sync again to see the conflict.',
        );
      }
      throw error;
    }
  }

  /** The remote's version of a record written into the local calendar (`remote-wins`), and linked. */
  private async pull(operation: Extract<Operation, { type: 'pull' }>): Promise<void> {
    const { links, options } = this.context;
    const remote = await this.remoteAsStored(operation.kind, operation.remoteId);
    const record = options.local.get(linkKey(operation.kind, operation.localId));
    const series = this.seriesRole(record);
    // An event of a series takes only what differs from it now (its head may have brought the rest), so that an
    // occurrence is not made one changed on its own for nothing.
    const only = series ? new Set(this.differingNow(record!, remote)) : undefined;
    const revision =
      series === 'head'
        ? await this.pullHead(operation.localId, remote, [...only!])
        : await this.pullFields(operation.kind, operation.localId, remote, only, series);
    await links.put(linkFor(operation.kind, operation.localId, revision, remote));
    await this.takeUid(operation.kind, operation.localId, remote);
    if (series === 'head') await this.linkRemoteSeries(operation.localId, operation.remoteId);
  }

  /**
   * Where an event stands in a series whose remote has series too: `head` (the remote's changes of it are
   * changes of the whole series), `occurrence`, or null (a single event, or a remote without series, where
   * every event is one of its own and changes of it are taken alone).
   */
  private seriesRole(record: LocalRecord | undefined): 'head' | 'occurrence' | null {
    if (!record?.series || !takesSeries(this.context)) return null;
    return isSeriesHead(record) ? 'head' : 'occurrence';
  }

  /** The fields of a local event that differ now from its remote version (both read now). */
  private differingNow(record: LocalRecord, remote: RemoteRecord): string[] {
    const current = localRecordOf(this.context.options.store, record.kind, record.id) ?? record;
    return differingFields(this.context, current, remote);
  }

  /** Writes the remote's version (`only` those fields) into a local record; a series' head as a series edit. */
  private pullFields(
    kind: Operation['kind'],
    localId: number,
    remote: RemoteRecord,
    only: ReadonlySet<string> | undefined,
    series: 'head' | 'occurrence' | null,
  ): Promise<number> {
    const { options } = this.context;
    return pullIntoLocal(
      options.store,
      kind,
      localId,
      remote,
      this.context.links.localIdOf,
      options.now ?? new Date(),
      options.caller,
      this.localMediaOf(),
      only,
      series === 'head' ? 'all' : 'this',
    );
  }

  /**
   * The remote's changes of a series' head: what it changed on the series as an edit of the whole series here,
   * what it changed on the head alone as a change of the head alone. Returns the head's new revision.
   */
  private async pullHead(localId: number, remote: RemoteRecord, fields: string[]): Promise<number> {
    const alone = new Set(await changedOnHeadAlone(this.context, remote, fields));
    const wide = fields.filter((field) => !alone.has(field));
    let revision = this.context.options.store.events.get(localId)!.revision;
    if (wide.length > 0) revision = await this.pullFields('event', localId, remote, new Set(wide), 'head');
    if (alone.size > 0) revision = await this.pullFields('event', localId, remote, alone, 'occurrence');
    return revision;
  }

  /** After a remote series' head came in: the local occurrences linked to the remote's (see execute/series.ts). */
  private linkRemoteSeries(localHeadId: number, remoteHeadId: number): Promise<void> {
    return linkRemoteSeries(this.context, localHeadId, remoteHeadId, async (occurrence, remote) => {
      const only = new Set(differingFields(this.context, occurrence, remote));
      return this.pullFields('event', occurrence.id, remote, only, 'occurrence');
    });
  }

  /** A venue or organizer found to be one created on two computers: one uid from now on, the remote's. */
  private async takeUid(kind: Operation['kind'], localId: number, remote: RemoteRecord): Promise<void> {
    const { options } = this.context;
    if (!remote.uid || (kind !== 'venue' && kind !== 'organizer')) return;
    await takeLinkedPostUid(kind, localId, remote.uid, {
      store: options.store,
      caller: options.caller,
      now: options.now ?? new Date(),
    });
  }

  /**
   * A three-way merge: the remote's changes of `toLocal` written here, then (with `toRemote`) the merged
   * record sent there, checked against the remote version the merge was made with. The link's base becomes
   * what both sides then hold.
   */
  private async merge(operation: Extract<Operation, { type: 'merge' }>): Promise<void> {
    const { links, options } = this.context;
    const { kind, localId, remoteId } = operation;
    const record = options.local.get(linkKey(kind, localId))!;
    const series = this.seriesRole(record);
    let remote = await this.remoteAsStored(kind, remoteId);
    let { toLocal, toRemote } = operation;
    if (series === 'occurrence') {
      // Its head's operation came first: the series' edits from either side may already be on both. What is
      // left is what still differs, each field going the way the plan found.
      if (links.get(kind, localId)?.remoteEtag !== remote.etag)
        remote = (await this.context.client.get(kind, remoteId)) ?? remote;
      const differing = new Set(this.differingNow(record, remote));
      toLocal = toLocal.filter((field) => differing.has(field));
      toRemote = toRemote.filter((field) => differing.has(field));
    }
    const link = links.get(kind, localId)!;
    // An event of a series as it is now: its head's edit taken from the remote in this run may have changed it.
    let revision = series
      ? (options.store.events.get(localId)?.revision ?? record.revision)
      : record.revision;
    if (toLocal.length > 0)
      revision =
        series === 'head'
          ? await this.pullHead(localId, remote, toLocal)
          : await this.pullFields(kind, localId, remote, new Set(toLocal), series);
    if (series === 'head' && toLocal.length > 0) await this.linkRemoteSeries(localId, remoteId);
    if (toRemote.length > 0) {
      const merged = localRecordOf(options.store, kind, localId)!;
      await this.update(merged, remoteId, false, remote.etag);
      if (series === 'head') await linkOccurrences(this.context, merged, remoteId);
      return;
    }
    // Pull-only with local changes: they stay to be sent (the revision last sent is kept).
    await links.put(linkFor(kind, localId, operation.localPending ? link.pushedRevision : revision, remote));
  }

  /** A record new on the remote, created here and linked. */
  private async importRecord(operation: Extract<Operation, { type: 'import' }>): Promise<void> {
    const { links, options } = this.context;
    const remote = await this.remoteAsStored(operation.kind, operation.remoteId);
    const created = await importIntoLocal(
      options.store,
      operation.kind,
      remote,
      this.context.links.localIdOf,
      options.now ?? new Date(),
      options.caller,
      this.localMediaOf(),
    );
    await links.put(linkFor(operation.kind, created.id, created.revision, remote));
    if (remote.seriesHeadId === remote.id) await this.linkRemoteSeries(created.id, remote.id);
  }

  /**
   * A page of events new on the remote, created here and linked in one store change (one durable write for the
   * page); their texts as WordPress stores them read in one request. Answers false, having changed nothing,
   * when one of them is refused here: the caller then imports them one by one, each failing on its own.
   */
  async importEvents(operations: Extract<Operation, { type: 'import' }>[]): Promise<boolean> {
    const { client, links, options } = this.context;
    const texts = client.isWordPress
      ? await client.storedTextsOfMany(
          'event',
          operations.map((operation) => operation.remoteId),
        )
      : new Map();
    const remotes = await Promise.all(
      operations.map((operation) => this.remoteAsStored('event', operation.remoteId, texts)),
    );
    const localIdOf = this.context.links.localIdOf;
    let written: Link[];
    try {
      ({ also: written } = await importEventsIntoLocal(
        options.store,
        remotes,
        localIdOf,
        options.now ?? new Date(),
        options.caller,
        this.localMediaOf(),
        (tx, created) => {
          const made = created.map((event, index) =>
            linkFor('event', event.id, event.revision, remotes[index]!),
          );
          links.writeIn(tx, made);
          return made;
        },
      ));
    } catch (error) {
      if (error instanceof RecordProblem) return false;
      throw error;
    }
    links.tookAll(written);
    for (const [index, remote] of remotes.entries())
      if (remote.seriesHeadId === remote.id) await this.linkRemoteSeries(written[index]!.localId, remote.id);
    this.context.summary.imported += operations.length;
    return true;
  }

  /**
   * The remote record read for the plan; from WordPress with its texts as stored (its plugin shows them
   * formatted), from `read` when a page's were read at once.
   */
  private async remoteAsStored(
    kind: Operation['kind'],
    remoteId: number,
    read?: Map<number, RemoteTexts>,
  ): Promise<RemoteRecord> {
    const { client, options } = this.context;
    const remote = options.remote.get(linkKey(kind, remoteId))!;
    if (client.isWordPress && remote.texts)
      return { ...remote, texts: read?.get(remoteId) ?? (await client.storedTexts(kind, remoteId)) };
    // Only a Calendar Desk answers an event's cost as typed and its own currency; another shows its site's.
    if (!remote.texts) return remote;
    return client.isCalendarDesk
      ? { ...remote, texts: { ...remote.texts, costAsTyped: true } }
      : { ...remote, texts: { ...remote.texts, currency: undefined } };
  }

  private localMediaOf(): LocalMediaOf {
    const mediaByRemote = new Map(
      this.context.links
        .allMedia()
        .flatMap((link) => (link.remoteId === null ? [] : [[link.remoteId, link.localId] as const])),
    );
    return (remoteMediaId) => mediaByRemote.get(remoteMediaId) ?? null;
  }
}
