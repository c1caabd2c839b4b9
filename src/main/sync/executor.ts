import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Conflict, Link, LocalImage, LocalRecord, Operation, RemoteRecord, SyncKind } from './model';
import { linkKey } from './model';
import { contentHash, isUploadedCopyOf, mapRefs } from './compare';
import { MEDIA_FILE_NAME, MEDIA_FOLDER, uploadTypeOf } from '../core/media';
import { REMOTE_GONE, sentAgainWhenFound } from './planner';
import { RemoteError, type RemoteClient } from './remoteClient';
import { backoffDelay } from './remoteTransport';
import type { LinkState } from './linkState';
import type { RecordFailure, SyncSummary } from '../../shared/schemas/sync';
import type { CalendarStore } from '../store/store';
import { pullIntoLocal } from './pull';
import { eventPasswords, RecordProblem } from './eventPassword';
import { DEFAULT_CONCURRENCY, inPool, stagesOf } from './stages';
import { toWireBody } from './wireBody';

export type { RecordFailure, SyncSummary } from '../../shared/schemas/sync';

type OperationOutcome = 'done' | 'adopted' | 'failed' | 'conflict';

/** What the executor tells its watchers (CLI bar, `--json` lines, the desktop app's job status). */
export type SyncProgress =
  | { type: 'start'; total: number }
  | {
      type: 'operation';
      index: number;
      total: number;
      operation: Operation;
      outcome: 'done' | 'adopted' | 'failed' | 'conflict';
      message?: string;
    }
  | { type: 'retry'; attempt: number; waitMs: number; reason: string }
  /** A picture was uploaded (`uploaded`: how many so far in this run), before the record that shows it. */
  | { type: 'upload'; fileName: string; remoteId: number; uploaded: number };

/** The sync cannot go on (credentials revoked, remote gone): what is done stays done, a re-run resumes. */
export class SyncStoppedError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Stopped part-way (exit status 3: run it again) rather than before anything was done (exit status 1). */
    readonly partWay = true,
  ) {
    super(message);
  }

  /** The CLI's exit status (README): 3 for a sync to run again, 1 for one that could not start. */
  get exitStatus(): number {
    return this.partWay ? 3 : 1;
  }
}

/** Remote errors that stop the whole sync rather than fail one record: every later request would fail too. */
const STOPPING_ERRORS = new Set(['REMOTE_BAD_CREDENTIALS', 'REMOTE_UNREACHABLE', 'REMOTE_UNAVAILABLE']);

export interface ExecuteOptions {
  client: RemoteClient;
  /** The local calendar (a `pull` writes into it). */
  store: CalendarStore;
  now?: Date;
  links: LinkState;
  local: Map<string, LocalRecord>;
  remote: Map<string, RemoteRecord>;
  onProgress?: (event: SyncProgress) => void;
  /** Stops between operations (the desktop app's Cancel; tests interrupt a sync with it). */
  signal?: AbortSignal;
  /** Operations sent at once, within each stage of the dependency order (default 4). */
  concurrency?: number;
  /** Tries of a create whose outcome is unknown (looked up by slug before each new try). */
  createAttempts?: number;
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface ExecuteResult {
  summary: SyncSummary;
  failures: RecordFailure[];
  /** Records found changed on the remote while the sync ran (If-Match refused): left as they are. */
  lateConflicts: Conflict[];
  interrupted: boolean;
}

/** The link to store after the remote answered with `record` for local revision `revision`. */
const linkFor = (kind: SyncKind, localId: number, revision: number | null, record: RemoteRecord): Link => ({
  kind,
  localId,
  remoteId: record.id,
  pushedRevision: revision,
  remoteModifiedUtc: record.modifiedUtc,
  remoteEtag: record.etag,
  remoteHash: contentHash(record.fields),
});

/** The remote refused an update because the record changed there meanwhile (If-Match): a conflict, not a failure. */
class LateConflictError extends Error {}

/**
 * Performs a plan's operations in order, checkpointing each finished one in the store. A 4xx on one record is
 * recorded on it and the rest go on; 401 or an unreachable remote stops the run (a re-run resumes).
 */
export async function execute(operations: Operation[], options: ExecuteOptions): Promise<ExecuteResult> {
  const { client, links } = options;
  const summary: SyncSummary = {
    created: 0,
    updated: 0,
    deleted: 0,
    adopted: 0,
    pulled: 0,
    uploaded: 0,
    conflicts: 0,
    failed: 0,
  };
  const failures: RecordFailure[] = [];
  const lateConflicts: Conflict[] = [];
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const passwords = eventPasswords(client, links);
  options.onProgress?.({ type: 'start', total: operations.length });

  /** Uploads under way, by local media id: records sent at the same time that share a picture share its upload. */
  const uploading = new Map<number, Promise<number>>();
  const uploadedImage = (image: LocalImage & { fileName: string }): Promise<number> => {
    let upload = uploading.get(image.mediaId);
    if (!upload) {
      upload = uploadImageOnce(image).finally(() => uploading.delete(image.mediaId));
      uploading.set(image.mediaId, upload);
    }
    return upload;
  };

  /** An uploaded picture's remote id: uploaded once per remote, an unknown outcome looked up before a new try. */
  const uploadImageOnce = async (image: LocalImage & { fileName: string }): Promise<number> => {
    /** The upload a lost answer may hide, found on the remote by its file name. */
    const lookUp = async (fileName: string) => {
      const found = await client.findUploadedMedia(fileName);
      if (found !== null)
        await links.putMedia({ localId: image.mediaId, remoteId: found, pendingFile: null });
      return found;
    };
    const known = links.mediaLink(image.mediaId);
    if (known?.remoteId != null) return known.remoteId;
    // An earlier run sent it and never learned the outcome.
    const sentBefore = known?.pendingFile ? await lookUp(known.pendingFile) : null;
    if (sentBefore !== null) return sentBefore;
    // Only a name of the stored shape is read (never another file of the computer, whatever a data file says).
    if (!MEDIA_FILE_NAME.test(image.fileName)) {
      throw new RecordProblem(
        'SYNC_PICTURE_MISSING',
        `Its picture file name "${image.fileName}" is not one this app stores: choose the picture again, or remove it.`,
      );
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(join(options.store.dataDir, MEDIA_FOLDER, image.fileName));
    } catch (error) {
      throw new RecordProblem(
        'SYNC_PICTURE_MISSING',
        `Its picture ${MEDIA_FOLDER}/${image.fileName} cannot be read from the data folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): choose the picture again, or remove it.`,
      );
    }
    const type = uploadTypeOf(image.fileName);
    if (!type) {
      throw new RecordProblem(
        'SYNC_PICTURE_TYPE',
        `Its picture ${image.fileName} is not a JPEG, PNG, GIF or WebP file: choose another picture.`,
      );
    }
    // Checkpoint before sending: after a lost answer, the remote is searched for this name before a new upload.
    await links.putMedia({ localId: image.mediaId, remoteId: null, pendingFile: image.fileName });
    /** Counted as uploaded in this run, whether its answer came or it was found after a lost answer. */
    const uploaded = (remoteId: number) => {
      summary.uploaded++;
      options.onProgress?.({
        type: 'upload',
        fileName: image.fileName,
        remoteId,
        uploaded: summary.uploaded,
      });
      return remoteId;
    };
    return sendOnce({
      send: async () => {
        const { id } = await client.uploadMedia(bytes, image.fileName, type);
        await links.putMedia({ localId: image.mediaId, remoteId: id, pendingFile: null });
        return uploaded(id);
      },
      refused: (error) => error.code === 'REMOTE_NO_MEDIA_UPLOAD' || isRefusal(error),
      forget: () => links.removeMedia(image.mediaId),
      lookUp: async () => {
        const found = await lookUp(image.fileName);
        return found === null ? null : uploaded(found);
      },
    });
  };

  /**
   * Sends something that must not be stored twice on the remote (a create, an upload), with a checkpoint
   * already written. A refusal surely stored nothing: the checkpoint is forgotten. A lost answer may hide a
   * success: before the next try, `lookUp` searches the remote for what the lost try stored.
   */
  const sendOnce = async <T>(steps: {
    send: () => Promise<T>;
    refused: (error: RemoteError) => boolean;
    forget: () => Promise<void>;
    lookUp: () => Promise<T | null>;
    recover?: (error: RemoteError) => Promise<T | null>;
  }): Promise<T> => {
    const attempts = options.createAttempts ?? 5;
    for (let attempt = 0; ; attempt++) {
      try {
        return await steps.send();
      } catch (error) {
        if (!(error instanceof RemoteError)) throw error;
        const recovered = await steps.recover?.(error);
        if (recovered) return recovered;
        if (steps.refused(error)) {
          await steps.forget();
          throw error;
        }
        if (error.code !== 'REMOTE_UNKNOWN_OUTCOME' || attempt + 1 >= attempts) throw error;
        options.onProgress?.({ type: 'retry', attempt: attempt + 1, waitMs: 0, reason: error.message });
        await sleep(backoffDelay(attempt, options.backoffMs ?? 500));
        const found = await steps.lookUp();
        if (found !== null) return found;
      }
    }
  };

  /**
   * The `image` to send: an uploaded picture's remote id, a picture's web address as is. No picture: nothing
   * on create; on update `''` clears it, except for WordPress events, which refuse `''` and drop the picture
   * when `image` is absent (REFERENCE §5.2).
   */
  const imageToSend = async (
    record: LocalRecord,
    creating: boolean,
  ): Promise<{ image?: number | string }> => {
    const image = record.image;
    if (image === undefined) return {};
    if (image === null) {
      if (creating || (record.kind === 'event' && client.mediaRoute?.kind === 'wordpress')) return {};
      return { image: '' };
    }
    if (image.fileName === null) return { image: image.url };
    return { image: await uploadedImage({ ...image, fileName: image.fileName }) };
  };

  /** A picture sent by address: the remote media id it became, so later plans compare ids. */
  const rememberImage = async (record: LocalRecord, answer: RemoteRecord) => {
    const image = record.image;
    if (!image || image.fileName !== null) return;
    const remoteId = typeof answer.fields.image === 'number' ? answer.fields.image : null;
    const known = links.mediaLink(image.mediaId);
    if (known && known.remoteId === remoteId) return;
    await links.putMedia({ localId: image.mediaId, remoteId, pendingFile: null });
  };

  /**
   * An adopted record that shows the upload of its picture file (the same calendar pushed before under another
   * address): that copy is this picture on this remote, so it is never uploaded again.
   */
  const adoptPicture = async (record: LocalRecord, remote: RemoteRecord) => {
    const image = record.image;
    if (!image?.fileName || links.remoteMediaIdOf(image.mediaId) !== null) return;
    const remoteFile = remote.imageUrl?.split('/').pop() ?? '';
    if (typeof remote.fields.image !== 'number' || !isUploadedCopyOf(image, remoteFile)) return;
    await links.putMedia({ localId: image.mediaId, remoteId: remote.fields.image, pendingFile: null });
  };

  /**
   * Sends a record; when the remote refuses its `image` because an uploaded picture's remote copy is gone
   * (deleted there), it is forgotten and uploaded again, once. Any other refused picture is named in the error.
   */
  const withPicture = async <T>(record: LocalRecord, send: () => Promise<T>): Promise<T> => {
    try {
      return await send();
    } catch (error) {
      const image = record.image;
      const params = error instanceof RemoteError ? error.data.params : undefined;
      if (
        !(error instanceof RemoteError) ||
        error.status !== 400 ||
        !image ||
        !params ||
        typeof params !== 'object' ||
        !('image' in params)
      )
        throw error;
      // Uploaded again only when the remote's copy is really gone: a picture refused for any other reason
      // would otherwise be uploaded once more on every run.
      const remoteMediaId = image.fileName !== null ? links.remoteMediaIdOf(image.mediaId) : null;
      if (remoteMediaId !== null && (await client.mediaGone(remoteMediaId))) {
        await links.removeMedia(image.mediaId);
        return send();
      }
      throw new RemoteError(
        error.code,
        `The remote refused its picture ${image.fileName ?? image.url} (${error.message}). ` +
          (image.fileName === null
            ? 'The remote must be able to fetch that address and find an image there: check it, or upload the picture instead.'
            : 'Choose the picture again, or remove it.'),
        error.status,
        error.remoteCode,
        error.data,
      );
    }
  };

  const body = async (record: LocalRecord, creating = false): Promise<Record<string, unknown>> => {
    const refs = mapRefs(record.refs, links.remoteIdOf);
    for (const [field, value] of Object.entries(refs)) {
      const missing = (Array.isArray(value) ? value : [value]).find((item) => typeof item === 'string');
      if (missing) {
        throw new RecordProblem(
          'SYNC_MISSING_DEPENDENCY',
          `It refers to ${field === 'parent' ? 'parent category' : field} ${String(missing).slice(6)}, which is not on the remote (see that record's error).`,
        );
      }
    }
    const sent: Record<string, unknown> = { ...record.fields, ...record.send };
    // A create takes no empty texts (they are the defaults anyway); an update sends them to clear a field.
    if (creating) for (const [field, value] of Object.entries(sent)) if (value === '') delete sent[field];
    // No venue is left out (the original cannot remove one and treats 0 as "not given"); an empty list is
    // sent on update only, to clear what the remote has.
    for (const [field, value] of Object.entries(refs)) {
      if (value === 0 || (creating && Array.isArray(value) && value.length === 0)) continue;
      sent[field] = value;
    }
    return toWireBody(record.kind, { ...sent, ...(await imageToSend(record, creating)) });
  };

  /**
   * A create that never duplicates: an unknown outcome is looked up by slug before the next try (`found`: it
   * was stored, the answer lost).
   */
  const createOnce = async (
    record: LocalRecord,
  ): Promise<{ remote: RemoteRecord; adopted: boolean; found?: boolean }> => {
    const sent = await body(record, true);
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
    const created = await sendOnce<{ remote: RemoteRecord; adopted: boolean; found?: boolean }>({
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
    });
    if (!protect || created.adopted) return created;
    // Created as a draft: linked (to be updated, password first, should the next step not happen) before it
    // gets its password and status.
    await links.put(linkFor(record.kind, record.id, null, created.remote));
    return { ...created, remote: await protect(created.remote) };
  };

  const update = async (record: LocalRecord, remoteId: number, force: boolean) => {
    const link = links.get(record.kind, record.id);
    try {
      let emptied: ('description' | 'excerpt')[] = [];
      let answer = await withPicture(record, async () => {
        const sent = await body(record);
        await passwords.beforeUpdate(record, remoteId, sent);
        // A WordPress site's plugin refuses or ignores "" there: those are emptied through wp/v2 after.
        emptied = client.isWordPress ? takeEmptyTexts(sent) : [];
        return client.update(record.kind, remoteId, sent, force ? null : (link?.remoteEtag ?? null));
      });
      const stale = emptied.filter((field) => answer.fields[field] !== '');
      if (stale.length > 0) answer = await client.clearTexts(record.kind, remoteId, stale);
      await passwords.afterUpdate(record, remoteId);
      await rememberImage(record, answer);
      await links.put(linkFor(record.kind, record.id, record.revision, answer));
    } catch (error) {
      if (error instanceof RemoteError && error.status === 412) {
        lateConflicts.push({
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
  };

  /** Carries out one operation (its checkpoint included); answers whether it adopted a remote record. */
  const perform = async (operation: Operation): Promise<'done' | 'adopted'> => {
    const record = options.local.get(linkKey(operation.kind, operation.localId));
    let outcome: 'done' | 'adopted' = 'done';
    switch (operation.type) {
      case 'create': {
        const { remote, adopted, found } = await withPicture(record!, () => createOnce(record!));
        if (!adopted) await rememberImage(record!, remote);
        await links.put(
          linkFor(operation.kind, operation.localId, adopted ? null : record!.revision, remote),
        );
        if (adopted) {
          // An existing term took the create (`term_exists`): it is adopted and brought to the local version.
          await update(record!, remote.id, true);
          summary.adopted++;
          outcome = 'adopted';
        } else {
          // Stored by a try whose answer was lost, perhaps part-way: sent again, as the planner does for the
          // lost creates of an earlier run.
          if (found && sentAgainWhenFound(operation.kind)) await update(record!, remote.id, true);
          summary.created++;
        }
        break;
      }
      case 'adopt': {
        const remote = options.remote.get(linkKey(operation.kind, operation.remoteId))!;
        await adoptPicture(record!, remote);
        await links.put(linkFor(operation.kind, operation.localId, record!.revision, remote));
        if (operation.thenUpdate || passwords.needsUpdate(record!))
          await update(record!, operation.remoteId, true);
        summary.adopted++;
        outcome = 'adopted';
        break;
      }
      case 'update':
        await update(record!, operation.remoteId, operation.force);
        summary.updated++;
        break;
      case 'delete': {
        const link = links.get(operation.kind, operation.localId);
        await client.delete(
          operation.kind,
          operation.remoteId,
          operation.force ? null : (link?.remoteEtag ?? null),
        );
        await links.remove(operation.kind, operation.localId);
        summary.deleted++;
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
      case 'pull': {
        const remote = options.remote.get(linkKey(operation.kind, operation.remoteId))!;
        // WordPress' plugin shows texts formatted: what the site stores is read from WordPress itself.
        const stored =
          client.isWordPress && remote.texts
            ? { ...remote, texts: await client.storedTexts(operation.kind, operation.remoteId) }
            : remote;
        const byRemote = new Map(
          links.all().map((link) => [linkKey(link.kind, link.remoteId ?? -1), link.localId]),
        );
        const mediaByRemote = new Map(
          links.allMedia().flatMap((link) => (link.remoteId === null ? [] : [[link.remoteId, link.localId]])),
        );
        const revision = await pullIntoLocal(
          options.store,
          operation.kind,
          operation.localId,
          stored,
          (kind, remoteId) => byRemote.get(linkKey(kind, remoteId)) ?? null,
          options.now ?? new Date(),
          (remoteMediaId) => mediaByRemote.get(remoteMediaId) ?? null,
        );
        await links.put(linkFor(operation.kind, operation.localId, revision, remote));
        summary.pulled++;
        break;
      }
      case 'unlink':
        if (links.get(operation.kind, operation.localId))
          await links.remove(operation.kind, operation.localId);
        break;
    }
    return outcome;
  };

  let completed = 0;
  /** The first error that stops the whole sync; no operation starts after it. */
  let stopping: RemoteError | null = null;
  const report = (operation: Operation, outcome: OperationOutcome, message?: string) => {
    completed++;
    options.onProgress?.({
      type: 'operation',
      index: completed,
      total: operations.length,
      operation,
      outcome,
      message,
    });
  };
  const run = async (operation: Operation) => {
    try {
      report(operation, await perform(operation));
    } catch (error) {
      if (error instanceof RemoteError && STOPPING_ERRORS.has(error.code)) {
        stopping ??= error;
        return;
      }
      if (error instanceof LateConflictError) {
        report(operation, 'conflict', error.message);
        return;
      }
      if (!(error instanceof RemoteError) && !(error instanceof RecordProblem)) throw error;
      const message = failureMessage(error);
      summary.failed++;
      failures.push({
        kind: operation.kind,
        localId: operation.localId,
        title: operation.title,
        code: error instanceof RemoteError ? (error.remoteCode ?? error.code) : error.code,
        message,
      });
      report(operation, 'failed', message);
    }
  };
  let started = 0;
  const mayStart = () => !stopping && !options.signal?.aborted;
  for (const stage of stagesOf(operations, options.local)) {
    await inPool(stage, options.concurrency ?? DEFAULT_CONCURRENCY, mayStart, (operation) => {
      started++;
      return run(operation);
    });
    if (!mayStart()) break;
  }
  // Cancelled with operations not started (those under way when it came were finished).
  const interrupted = options.signal?.aborted === true && started < operations.length;
  // Sent concurrently, failures come in any order: listed in the plan's.
  const order = new Map(
    operations.map((operation, index) => [linkKey(operation.kind, operation.localId), index]),
  );
  failures.sort((a, b) => order.get(linkKey(a.kind, a.localId))! - order.get(linkKey(b.kind, b.localId))!);
  if (stopping) {
    const error: RemoteError = stopping;
    throw new SyncStoppedError(
      error.code,
      `${error.message} The sync stopped after ${completed} of ${operations.length} operations; what was done is saved, run it again to continue.`,
    );
  }
  summary.conflicts += lateConflicts.length;
  return { summary, failures, lateConflicts, interrupted };
}

/**
 * A record's failure as its user reads it: what happened and what they can do. Messages written for one case
 * (a picture, a password, a role) already say it; the remote's own refusals get it here, by kind of answer.
 */
function failureMessage(error: RemoteError | RecordProblem): string {
  if (error instanceof RecordProblem) return error.message;
  if (error.code === 'REMOTE_UNKNOWN_OUTCOME') {
    return (
      `${error.message} The site did not confirm it after several tries: run the sync again; it looks for ` +
      'the record on the site before sending it again, so nothing is duplicated.'
    );
  }
  if (error.code === 'REMOTE_BAD_RECORD') {
    return `${error.message} Tell the site's administrator: another plugin may change what the site answers.`;
  }
  if (error.code !== 'REMOTE_HTTP_ERROR' || error.status === null) return error.message;
  const status = error.status;
  const advice =
    status === 403
      ? 'This account may not do that on the site: sync with an editor or administrator account.'
      : status === 404 || status === 410
        ? 'The site no longer has it: run the sync again, which then asks (--policy) whether to send it anew.'
        : status >= 500
          ? "The site failed on this record: its administrator finds why in the site's PHP error log. Run the sync again once that is fixed."
          : status === 400
            ? 'The site refused what was sent: if the reason names something of this record you can change here, ' +
              'correct it and run the sync again; otherwise this Calendar Desk does not fit the version of ' +
              'The Events Calendar on the site: report it to the Calendar Desk developers with this message.'
            : "Run the sync again; if it fails the same way, tell the site's administrator.";
  return `${error.message} ${advice}`;
}

/** Removes the empty description and excerpt from a body and names them. */
function takeEmptyTexts(sent: Record<string, unknown>): ('description' | 'excerpt')[] {
  const empty = (['description', 'excerpt'] as const).filter((field) => sent[field] === '');
  for (const field of empty) delete sent[field];
  return empty;
}

/** An answer that surely stored nothing: the remote refused the request (not a 5xx nor a 429). */
function isRefusal(error: RemoteError): boolean {
  return error.status !== null && error.status < 500 && error.status !== 429;
}
