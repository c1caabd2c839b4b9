import { randomUUID } from 'node:crypto';
import type { CalendarStore } from '../store/store';
import type { Caller } from '../core/capabilities';
import { changeEvent, trashEvent } from '../core/events';
import { WriteRefused } from '../core/writes';
import type { WriteCondition } from './davCalendar';
import { isAcceptableName, type CalendarObjects } from '../dav/calendarObjects';
import { icsUidOf } from '../exchange/ics';
import { DavError } from '../dav/davError';
import { keptFrom, withKept } from '../dav/keptProperties';
import { writeObject } from '../dav/objectWrites';
import { parseResource, resourceFields, withFieldsFrom } from '../dav/resourceFields';
import type { LinkState } from '../sync/linkState';
import type { Operation } from '../sync/model';
import { RemoteError } from '../sync/remoteErrors';
import type { SyncProgress } from '../sync/executor';
import { emptySummary } from '../sync/execute/context';
import type { RecordFailure, SyncSummary } from '../../shared/schemas/sync';
import { StaleResourceError, type DavCalendar } from './davCalendar';
import { numberOf, sharedObject, type LocalResource, type RemoteResource } from './resources';

/**
 * Carries out a plan against a CalDAV calendar: each operation a PUT or DELETE with its precondition there, or a
 * write through core here (dav/objectWrites.ts, as the CalDAV server's PUT), then its link as a checkpoint. A
 * write the server refuses because the resource changed meanwhile (412) sends nothing: the record is read and
 * merged again (the caller runs one more round). Up to 4 operations run at once.
 */
export interface CaldavExecution {
  dav: DavCalendar;
  store: CalendarStore;
  objects: CalendarObjects;
  caller: Caller;
  links: LinkState;
  clock: () => Date;
  local: Map<number, LocalResource>;
  /** Resources read from the server this round, by remote id. */
  resources: Map<number, RemoteResource>;
  onProgress?: (event: SyncProgress) => void;
  signal?: AbortSignal;
  concurrency?: number;
}

export interface CaldavOutcome {
  summary: SyncSummary;
  failures: RecordFailure[];
  /** Records changed on the server while this round ran: merged by another round. */
  stale: number;
  interrupted: boolean;
}

class Round {
  readonly summary = emptySummary();
  readonly failures: RecordFailure[] = [];
  stale = 0;

  constructor(readonly run: CaldavExecution) {}

  /** A local resource as planned (it changes here only through this sync's own writes). */
  private resourceOf(localId: number) {
    const resource = this.run.local.get(localId);
    if (!resource?.object) throw new RemoteError('REMOTE_BAD_RECORD', 'The event is no longer shared here.');
    return resource;
  }

  /** Our text of a resource, without what the user's own calendar apps added (their reminders are theirs). */
  private ourText(resource: LocalResource): string {
    return this.run.objects.render(this.run.caller, resource.object!, false).text;
  }

  /** The server's current resource for a remote id: read this round, else fetched now. */
  private async theirs(remoteId: number): Promise<RemoteResource> {
    const read = this.run.resources.get(remoteId);
    if (read) return read;
    const href = this.hrefOf(remoteId);
    const got = await this.run.dav.get(href);
    if (!got) throw new StaleResourceError(href);
    return { href, etag: got.etag, text: got.text };
  }

  /** The server's address of each remote id, from the links and the resources read (made again on a miss). */
  private hrefs: Map<number, string> | null = null;

  private hrefOf(remoteId: number): string {
    let href = this.hrefs?.get(remoteId);
    if (href === undefined) {
      this.hrefs = new Map();
      for (const one of this.run.resources.values()) this.hrefs.set(numberOf(one.href), one.href);
      for (const link of this.run.links.all())
        if (link.remoteId !== null && link.remoteHref) this.hrefs.set(link.remoteId, link.remoteHref);
      href = this.hrefs.get(remoteId);
    }
    if (!href)
      throw new RemoteError('REMOTE_BAD_RECORD', 'The event is not known on the calendar server any more.');
    return href;
  }

  /**
   * Links a local resource to the server's, both now holding `text`'s fields: the checkpoint of one operation.
   * `pending`: changes here are still to be sent (a pull-only merge): the base is the server's version and the
   * local one counts as changed, so the next sync that pushes sends it.
   */
  private async link(
    localId: number,
    href: string,
    etag: string | null,
    text: string,
    pending?: { theirs: string },
  ): Promise<void> {
    const { store, objects, caller } = this.run;
    const head = store.events.get(localId);
    const object = head ? sharedObject(store, objects, caller, head) : null;
    await this.run.links.put({
      kind: 'event',
      localId,
      remoteId: numberOf(href),
      pushedRevision: object && !pending ? numberOf(objects.contentStamp(object)) : null,
      remoteModifiedUtc: null,
      remoteEtag: etag,
      remoteHash: null,
      base: resourceFields(parseResource(pending?.theirs ?? text)),
      remoteHref: href,
    });
  }

  /** Sends our version (with what the server's apps added kept) and links it. */
  private async send(
    localId: number,
    text: string,
    href: string,
    condition: WriteCondition,
    theirs?: string,
  ) {
    const body = theirs ? withKept(text, keptFrom(parseResource(theirs))) : text;
    const etag = await this.run.dav.put(href, body, condition);
    await this.link(localId, href, etag, text);
  }

  /**
   * The head a resource new here is already: one of ours with its UID in the trash (deleted here, then kept on
   * another laptop by its own choice), which comes back with the server's version.
   */
  private trashedTwin(text: string) {
    const uid = String(
      parseResource(text).getFirstSubcomponent('vevent')?.getFirstPropertyValue('uid') ?? '',
    );
    return [...this.run.store.events.values()].find(
      (event) => event.parentId === 0 && event.status === 'trash' && icsUidOf(event) === uid,
    );
  }

  /** Writes the server's version here (creating the event when `localId` is 0) and links it. */
  private async take(
    localId: number,
    resource: RemoteResource,
    text = resource.text,
    pending = false,
  ): Promise<number> {
    const { objects, store, caller, clock } = this.run;
    const existing = localId ? store.events.get(localId) : this.trashedTwin(text);
    if (existing?.status === 'trash')
      await changeEvent(
        existing.id,
        { status: 'publish', scope: 'all' },
        {
          store,
          caller,
          now: clock(),
        },
      );
    const basename = decodeURIComponent(resource.href.split('/').pop() ?? '');
    const name = existing
      ? objects.nameOf(existing)
      : isAcceptableName(basename) && basename && !objects.headByName(basename)
        ? basename
        : `${randomUUID()}.ics`;
    const { head } = await writeObject({ store, objects, caller, clock }, name, text, {
      keepAppLines: false,
    });
    await this.link(
      head.id,
      resource.href,
      resource.etag,
      text,
      pending ? { theirs: resource.text } : undefined,
    );
    return head.id;
  }

  async apply(operation: Operation): Promise<void> {
    const { dav, links, objects } = this.run;
    const { summary } = this;
    switch (operation.type) {
      case 'create': {
        const resource = this.resourceOf(operation.localId);
        const href = `${dav.path}${encodeURIComponent(objects.nameOf(resource.object!.head))}`;
        await this.send(operation.localId, this.ourText(resource), href, 'new');
        summary.created++;
        return;
      }
      case 'update': {
        const resource = this.resourceOf(operation.localId);
        const theirs = await this.theirs(operation.remoteId);
        const condition = operation.force
          ? null
          : (links.get('event', operation.localId)?.remoteEtag ?? theirs.etag);
        await this.send(operation.localId, this.ourText(resource), theirs.href, condition, theirs.text);
        summary.updated++;
        return;
      }
      case 'adopt': {
        const theirs = await this.theirs(operation.remoteId);
        if (operation.thenUpdate) {
          const resource = this.resourceOf(operation.localId);
          await this.send(operation.localId, this.ourText(resource), theirs.href, theirs.etag, theirs.text);
        } else await this.link(operation.localId, theirs.href, theirs.etag, theirs.text);
        summary.adopted++;
        return;
      }
      case 'accept': {
        const theirs = await this.theirs(operation.remoteId);
        await this.link(operation.localId, theirs.href, theirs.etag, theirs.text);
        return;
      }
      case 'pull': {
        await this.take(operation.localId, await this.theirs(operation.remoteId));
        summary.pulled++;
        return;
      }
      case 'import': {
        await this.take(0, await this.theirs(operation.remoteId));
        summary.imported++;
        return;
      }
      case 'merge':
        return this.merge(operation);
      case 'delete': {
        const link = links.get('event', operation.localId);
        await dav.delete(
          this.hrefOf(operation.remoteId),
          operation.force ? null : (link?.remoteEtag ?? null),
        );
        await links.remove('event', operation.localId);
        summary.deleted++;
        return;
      }
      case 'trash': {
        const head = this.run.store.events.get(operation.localId);
        if (head && head.status !== 'trash')
          await trashEvent(head.id, {
            store: this.run.store,
            caller: this.run.caller,
            now: this.run.clock(),
            scope: 'all',
          });
        await links.remove('event', operation.localId);
        summary.trashed++;
        return;
      }
      case 'unlink':
        await links.remove('event', operation.localId);
        return;
    }
  }

  /** A three-way merge: the server's changed fields taken here, ours sent there, in one resource for both. */
  private async merge(operation: Extract<Operation, { type: 'merge' }>): Promise<void> {
    const resource = this.resourceOf(operation.localId);
    const theirs = await this.theirs(operation.remoteId);
    const merged = withFieldsFrom(this.ourText(resource), theirs.text, operation.toLocal);
    // A pull-only sync keeps the changes made here to send them later.
    const pending = operation.localPending;
    if (operation.toLocal.length) {
      await this.take(operation.localId, theirs, merged, pending);
      this.summary.pulled++;
    }
    if (operation.toRemote.length && !operation.localPending) {
      const link = this.run.links.get('event', operation.localId);
      await this.send(operation.localId, merged, theirs.href, link?.remoteEtag ?? theirs.etag, theirs.text);
      this.summary.updated++;
    }
  }

  /** What a failed operation tells the user, in plain words. */
  failed(operation: Operation, error: unknown): string {
    if (error instanceof DavError)
      return `Calendar Desk cannot take this event from the server: ${error.message}`;
    if (error instanceof WriteRefused) return error.message;
    if (error instanceof RemoteError) return error.message;
    return (error as Error).message;
  }
}

/** Runs the operations, up to `concurrency` at once; a failure is that record's, the others go on. */
export async function executeCaldav(operations: Operation[], run: CaldavExecution): Promise<CaldavOutcome> {
  const round = new Round(run);
  const total = operations.length;
  run.onProgress?.({ type: 'start', total });
  let next = 0;
  let done = 0;
  let interrupted = false;
  const worker = async () => {
    while (next < operations.length) {
      if (run.signal?.aborted) {
        interrupted = true;
        return;
      }
      const operation = operations[next++]!;
      let outcome: 'done' | 'failed' | 'conflict' = 'done';
      let message: string | undefined;
      try {
        await round.apply(operation);
      } catch (error) {
        if (error instanceof StaleResourceError) {
          round.stale++;
          outcome = 'conflict';
          message = 'changed on the calendar server while this sync ran: read again and merged';
        } else if (
          error instanceof RemoteError &&
          ['REMOTE_BAD_CREDENTIALS', 'REMOTE_CANCELLED'].includes(error.code)
        ) {
          throw error;
        } else {
          outcome = 'failed';
          message = round.failed(operation, error);
          round.summary.failed++;
          round.failures.push({
            kind: 'event',
            localId: operation.localId,
            title: operation.title,
            code: 'remote_refused',
            message,
          });
        }
      }
      run.onProgress?.({
        type: 'operation',
        index: ++done,
        total,
        operation,
        outcome,
        ...(message ? { message } : {}),
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, run.concurrency ?? 4) }, worker));
  return { summary: round.summary, failures: round.failures, stale: round.stale, interrupted };
}
