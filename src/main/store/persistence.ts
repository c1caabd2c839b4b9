import { copyFile, link, readdir, readFile, unlink, mkdir, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { DurableJsonFile, serializeInChunks, syncFolder, writeFileDurably } from './durableJsonFile';
import { EventKeyColumns, type EventKeys } from './lazyEvents';
import { layoutFileBytes, readWithLayout, type LineLayout } from './lineLayout';
import { Journal, parseJournal, type JournalDamage, type JournalEntry } from './journal';
import type { DataFile } from './schema';
import { appendAll } from '../../shared/arrays';

export const DATA_FILE_NAME = 'calendar.json';
export const BACKUP_FOLDER = 'backups';
const JOURNAL_PATTERN = /^journal-(\d{12})\.log$/;

/** What `load()` hands the store: the base state, the batches to replay on top, and what the user should know. */
export interface LoadedData<Op> {
  base: DataFile | null;
  entries: JournalEntry<Op>[];
  notices: string[];
}

/** Turns raw file content into a valid DataFile, or throws DataFileInvalidError. */
/**
 * Turns raw file content into a valid DataFile, or throws DataFileInvalidError. `trusted` content is the file
 * this program itself last wrote (its fingerprint matches), so a shallow check is enough.
 */
export type Validate = (raw: unknown, trusted?: boolean) => DataFile;

const FINGERPRINT_FILE = `${DATA_FILE_NAME}.written`;
/** Where the data file's events' lines are (lineLayout.ts), for the file the fingerprint names. */
const LAYOUT_FILE = `${DATA_FILE_NAME}.lines`;

/**
 * The array of a data file this process wrote that is handed to `validate` unparsed, as a RawLines: the store
 * reads the events' records when they are first used, so that a big calendar answers sooner after a start.
 */
const RAW_ARRAY = 'events';
/**
 * The venues and organizers are handed over unparsed too (their records are read when first used), and the
 * change feed (parsed when first used: see ChangeFeed.resetLater).
 */
const OTHER_RAW_PARTS = ['venues', 'organizers', 'changeFeed'];
const RAW_PARTS = [RAW_ARRAY, ...OTHER_RAW_PARTS];
/** The member holding the events' keys (lazyEvents.ts): the layout file keeps them as numbers as well. */
const KEYS_MEMBER = 'eventKeys';

/** The file's identity and last change, as the file system reports them (null: no such file). */
async function fileStamp(file: string) {
  const info = await stat(file).catch(() => null);
  return info && { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino };
}

type FileStamp = Awaited<ReturnType<typeof fileStamp>>;

/** What identifies the data file as the one last written here: any edit by others changes it. */
const fingerprintFrom = (stamp: FileStamp, journalSeq: number) => JSON.stringify({ ...stamp, journalSeq });

/** How the store's state reaches the disk. */
export interface Persistence<Op> {
  load(validate: Validate): Promise<LoadedData<Op>>;
  /** Makes one batch durable; `snapshot` gives the whole state for persistences that rewrite it. */
  commit(entry: JournalEntry<Op>, snapshot: () => DataFile): Promise<void>;
  /** Whether enough was appended that folding it into the data file is worth it. */
  needsCompaction(): boolean;
  /** Starts a new journal for batches after `seq`; the old ones are dropped once `writeSnapshot` is done. */
  rotate(nextSeq: number): Promise<void>;
  /** Writes the data file (whose `journalSeq` says what it contains) and drops the journals it covers. */
  writeSnapshot(data: DataFile): Promise<void>;
  /** Makes the next start check the data file in full (a part of it turned out unreadable after the start). */
  distrustDataFile?(): Promise<void>;
  close(): Promise<void>;
}

/** The whole file rewritten on every commit through any lowdb adapter (tests keep data in memory this way). */
export class SnapshotPersistence<Op> implements Persistence<Op> {
  constructor(private readonly adapter: Adapter<DataFile>) {}

  async load(validate: Validate): Promise<LoadedData<Op>> {
    const raw = await this.adapter.read();
    return { base: raw === null ? null : validate(raw), entries: [], notices: [] };
  }

  async commit(_entry: JournalEntry<Op>, snapshot: () => DataFile): Promise<void> {
    await this.adapter.write(snapshot());
  }

  needsCompaction(): boolean {
    return false;
  }

  async rotate(): Promise<void> {}

  async writeSnapshot(data: DataFile): Promise<void> {
    await this.adapter.write(data);
  }

  async close(): Promise<void> {}
}

export interface JournaledOptions {
  /** Fold the journal into the data file once it holds this many bytes… */
  compactAfterBytes?: number;
  /**
   * …or, when more, this share of the data file's size: folding rewrites the whole file, so a journal that may
   * grow with the file keeps the cost of that rewrite per change from growing with the calendar (issue 32).
   * The price: a start after a crash replays up to this much journal (none after a clean shutdown, which folds).
   */
  compactAtShareOfFile?: number;
  /** Backups kept, and the least time between two of them. */
  backups?: number;
  backupIntervalMs?: number;
  now?: () => Date;
}

const journalName = (firstSeq: number) => `journal-${String(firstSeq).padStart(12, '0')}.log`;
const stamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/**
 * The data file plus an append-only journal (issue: durable and fast). A commit appends one line to the
 * journal and fsyncs it, so its cost does not grow with the calendar. From time to time (and at shutdown)
 * the state is written to the data file in the background — temp file, fsync, rename — and the journals it
 * covers are removed. On start the data file is read and newer journal batches replayed. The replaced data
 * file is kept as a rolling backup (a hard link: no copy), used when the data file turns out unreadable.
 */
export class JournaledPersistence<Op> implements Persistence<Op> {
  private journal: Journal<Op> | null = null;
  /** Journal files whose batches the next snapshot will contain. */
  private retired: string[] = [];
  /**
   * Journals already folded into the data file, kept until a backup covers them: restoring that backup then
   * replays them, so a damaged data file loses nothing.
   */
  private kept: string[] = [];
  /** `journalSeq` of the data file now on disk (what a backup made of it will contain). */
  private fileSeq = 0;
  /** The size of the data file now on disk. */
  private fileBytes = 0;
  private readonly file: string;
  private readonly options: Required<JournaledOptions>;

  constructor(
    private readonly dataDir: string,
    options: JournaledOptions = {},
  ) {
    this.file = join(dataDir, DATA_FILE_NAME);
    this.options = {
      compactAfterBytes: options.compactAfterBytes ?? 8 * 1024 * 1024,
      compactAtShareOfFile: options.compactAtShareOfFile ?? 0.25,
      backups: options.backups ?? 3,
      backupIntervalMs: options.backupIntervalMs ?? 10 * 60_000,
      now: options.now ?? (() => new Date()),
    };
  }

  async load(validate: Validate): Promise<LoadedData<Op>> {
    const notices: string[] = [];
    const base = await this.loadBase(validate, notices);
    this.fileBytes = (await fileStamp(this.file))?.size ?? 0;
    const baseSeq = base?.journalSeq ?? 0;
    this.fileSeq = baseSeq;
    const files = (await readdir(this.dataDir)).filter((name) => JOURNAL_PATTERN.test(name)).sort();
    const entries: JournalEntry<Op>[] = [];
    for (const [index, name] of files.entries()) {
      const path = join(this.dataDir, name);
      if (index < files.length - 1) {
        // Older journals were complete when they were rotated away; read what is intact. Those the data file
        // already contains are only kept for the backups; the others still need folding.
        const { entries: older, damage } = parseJournal<Op>(await readFile(path), { complete: true });
        // Its batches go up to the one before the next journal's first (or further, after a failed rotation).
        const lastSeq = Math.max(older.at(-1)?.seq ?? 0, firstSeqOf(files[index + 1]!) - 1);
        // Damage in a journal the data file already covers lost nothing (its batches were folded before).
        if (damage && lastSeq > baseSeq) notices.push(await this.keepDamagedJournal(path, damage));
        appendAll(entries, older);
        (lastSeq <= baseSeq ? this.kept : this.retired).push(path);
      } else {
        const opened = await Journal.open<Op>(path);
        this.journal = opened.journal;
        appendAll(entries, opened.entries);
        if (opened.damage && (opened.entries.at(-1)?.seq ?? 0) > baseSeq) {
          notices.push(await this.keepDamagedJournal(path, opened.damage));
        }
        if (opened.tornBytes > 0) {
          notices.push(
            `An unfinished last change (${opened.tornBytes} bytes, never confirmed) was discarded.`,
          );
        }
      }
    }
    if (!this.journal)
      this.journal = (await Journal.open<Op>(join(this.dataDir, journalName(baseSeq + 1)))).journal;
    const replay = entries.filter((entry) => entry.seq > baseSeq);
    let expected = baseSeq + 1;
    for (const entry of replay) {
      if (entry.seq > expected) {
        const missing =
          entry.seq - 1 > expected
            ? `Changes ${expected} to ${entry.seq - 1} were`
            : `Change ${expected} was`;
        notices.push(`${missing} not found in the journal; later ones were applied.`);
      }
      expected = entry.seq + 1;
    }
    return { base, entries: replay, notices };
  }

  /**
   * A journal with damaged lines in the middle (the disk, not a crash, broke them): the intact batches are
   * replayed, the damaged ones cannot be. A copy of the file as found is kept for inspection.
   */
  private async keepDamagedJournal(path: string, damage: JournalDamage): Promise<string> {
    const aside = `${path}.damaged-${stamp(this.options.now())}`;
    await copyFile(path, aside).catch(() => undefined);
    const lines = damage.lines === 1 ? '1 line' : `${damage.lines} lines`;
    return (
      `${basename(path)} had ${lines} (${damage.bytes} bytes) that failed their checksum; those changes ` +
      `could not be applied, every intact change was. A copy of the journal was kept as ${aside}.`
    );
  }

  /** The data file read around its events' lines, when its layout file is for the file `written` names. */
  private readWithLayout(written: string) {
    let stamp: FileStamp;
    try {
      stamp = JSON.parse(written) as FileStamp;
    } catch {
      return null;
    }
    if (!stamp || !Number.isSafeInteger(stamp.size)) return null;
    const layoutFile = join(this.dataDir, LAYOUT_FILE);
    return readWithLayout(
      this.file,
      layoutFile,
      RAW_ARRAY,
      OTHER_RAW_PARTS,
      KEYS_MEMBER,
      written,
      stamp.size,
    );
  }

  /** The data file, or the newest good backup when it is damaged (the damaged file is kept aside). */
  private async loadBase(validate: Validate, notices: string[]): Promise<DataFile | null> {
    const reader = new DurableJsonFile<unknown>(this.file);
    let firstError: unknown;
    try {
      const stampBefore = JSON.stringify(await fileStamp(this.file));
      const written = await readFile(join(this.dataDir, FINGERPRINT_FILE), 'utf8').catch(() => '');
      // Written here and unchanged since (as far as its stamp tells before reading it): its lines are ours.
      const ours = written.startsWith(`${stampBefore.slice(0, -1)},"journalSeq":`);
      // With the layout of its events' lines, only the bytes around them are read now (lineLayout.ts).
      const laidOut = ours ? this.readWithLayout(written) : null;
      let raw = laidOut ? laidOut.value : await reader.read(ours ? RAW_PARTS : undefined);
      if (raw === null) {
        // No data file: a new folder — unless backups exist (a deleted file, or a crash while restoring one).
        if ((await this.backups()).length === 0) return null;
        throw Object.assign(new Error('the data file is missing'), { code: 'DATA_FILE_INVALID' });
      }
      const seq = (raw as { journalSeq?: unknown }).journalSeq;
      // Only a file that did not change while it was read can be vouched for by what was read.
      const stampAfter = await fileStamp(this.file);
      const fingerprint =
        typeof seq === 'number' && JSON.stringify(stampAfter) === stampBefore
          ? fingerprintFrom(stampAfter, seq)
          : '';
      const trusted = fingerprint !== '' && written === fingerprint;
      if (laidOut && !trusted) {
        // Changed while its head and tail were read: read as any file is.
        laidOut.lines.close();
        raw = await reader.read(RAW_PARTS);
      }
      let data: DataFile;
      try {
        data = validate(raw, trusted);
      } catch (error) {
        // A line kept as bytes that is not one JSON value (the file is not quite as written, after all): the
        // whole text decides, as for any file.
        if (!(ours && error instanceof SyntaxError)) throw error;
        laidOut?.lines.close();
        raw = await reader.read();
        data = validate(raw, trusted);
      }
      // Fully checked now: the next start can trust it as long as nobody changes it.
      if (!trusted && fingerprint) {
        await writeFile(join(this.dataDir, FINGERPRINT_FILE), fingerprint, { mode: 0o600 }).catch(
          () => undefined,
        );
      }
      return data;
    } catch (error) {
      if (!isDamage(error)) throw error;
      firstError = error;
    }
    for (const backup of await this.backups()) {
      try {
        const raw = await new DurableJsonFile<unknown>(backup.path).read();
        if (raw === null) continue;
        const data = validate(raw);
        // Keep the damaged file (a link: the data file itself is replaced atomically, so a crash here leaves
        // either the damaged file, which the next start restores again, or the restored one).
        const aside = `${this.file}.damaged-${stamp(this.options.now())}`;
        await link(this.file, aside).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT' && error.code !== 'EEXIST') throw error;
        });
        await writeFileDurably(this.file, await readFile(backup.path, 'utf8'));
        const kept =
          (firstError as Error).message === 'the data file is missing' ? '' : ` It was kept as ${aside}.`;
        notices.push(
          `The data file was damaged (${(firstError as Error).message}).${kept} The backup of ` +
            `${backup.date.toISOString()} was restored and the changes in the journal since then were re-applied.`,
        );
        return data;
      } catch (error) {
        if (!isDamage(error)) throw error;
      }
    }
    throw firstError;
  }

  /**
   * Backups, newest content first (the journal batch a backup contains, then when it was made). Their time
   * comes from their name, i.e. from the clock that decided to make them, not from the file system.
   */
  private async backups(): Promise<Array<{ path: string; date: Date; seq: number }>> {
    const folder = join(this.dataDir, BACKUP_FOLDER);
    const names = await readdir(folder).catch(() => [] as string[]);
    const found = await Promise.all(
      names
        .filter((name) => /^calendar-.*\.json$/.test(name))
        .map(async (name) => {
          const path = join(folder, name);
          return { path, date: dateOfBackup(name) ?? (await stat(path)).mtime, seq: seqOfBackup(path) };
        }),
    );
    return found.sort(
      (a, b) => b.seq - a.seq || b.date.getTime() - a.date.getTime() || b.path.localeCompare(a.path),
    );
  }

  /** Creates the journal for batches from `firstSeq` on, durably listed in the folder before any append. */
  private async newJournal(firstSeq: number): Promise<Journal<Op>> {
    const path = join(this.dataDir, journalName(firstSeq));
    const { journal } = await Journal.open<Op>(path);
    try {
      await syncFolder(this.dataDir);
    } catch (error) {
      // Not used after all: left behind, its name would misstate where the previous journal ends.
      await journal.close().catch(() => undefined);
      await unlink(path).catch(() => undefined);
      throw error;
    }
    return journal;
  }

  async commit(entry: JournalEntry<Op>): Promise<void> {
    await this.journal!.append([entry]);
  }

  needsCompaction(): boolean {
    const { compactAfterBytes, compactAtShareOfFile } = this.options;
    return (this.journal?.size ?? 0) >= Math.max(compactAfterBytes, this.fileBytes * compactAtShareOfFile);
  }

  /** Whether anything was appended since the data file was last written (kept journals do not count). */
  hasJournal(): boolean {
    return (this.journal?.size ?? 0) > 0 || this.retired.length > 0;
  }

  async rotate(nextSeq: number): Promise<void> {
    // An empty journal holds nothing the snapshot must cover: keep appending to it (it may even be the very
    // file `nextSeq` names, after a crash between a rotation and its snapshot).
    if (this.journal!.size === 0) return;
    const previous = this.journal!;
    this.journal = await this.newJournal(nextSeq);
    await previous.close();
    this.retired.push(previous.path);
  }

  async writeSnapshot(data: DataFile): Promise<void> {
    const covered = [...this.retired];
    const backup = await this.backupTarget();
    const layout: LineLayout = { key: RAW_ARRAY, offsets: [], member: { key: KEYS_MEMBER } };
    await writeFileDurably(this.file, serializeInChunks(data, layout), backup);
    if (backup) await syncFolder(join(this.dataDir, BACKUP_FOLDER));
    // Only now are they covered: a failed write leaves them to the next snapshot.
    this.retired = this.retired.filter((path) => !covered.includes(path));
    // Not fsynced on purpose: a lost fingerprint (or layout) only means a full read on the next start.
    const written = await fileStamp(this.file);
    this.fileBytes = written?.size ?? 0;
    const fingerprint = fingerprintFrom(written, data.journalSeq);
    const keys = (data as { [KEYS_MEMBER]?: EventKeys })[KEYS_MEMBER];
    const bytes = layoutFileBytes(layout, fingerprint, keys ? await EventKeyColumns.of(keys) : null);
    const layoutFile = join(this.dataDir, LAYOUT_FILE);
    await (bytes ? writeFile(layoutFile, bytes, { mode: 0o600 }) : unlink(layoutFile)).catch(() => undefined);
    await writeFile(join(this.dataDir, FINGERPRINT_FILE), fingerprint, { mode: 0o600 });
    this.fileSeq = data.journalSeq;
    appendAll(this.kept, covered);
    await this.pruneBackups();
    await this.dropJournalsCoveredByBackup();
  }

  /** Where the replaced data file is kept, when the last backup is old enough; its name says its journalSeq. */
  private async backupTarget(): Promise<string | undefined> {
    const lastMade = Math.max(...(await this.backups()).map((backup) => backup.date.getTime()));
    const now = this.options.now();
    const sinceNewest = now.getTime() - lastMade; // Infinity without backups
    // A backup dated in the future means the clock was set back: waiting for it would stop all backups.
    if (sinceNewest >= 0 && sinceNewest < this.options.backupIntervalMs) return undefined;
    await mkdir(join(this.dataDir, BACKUP_FOLDER), { recursive: true, mode: 0o700 });
    return join(this.dataDir, BACKUP_FOLDER, `calendar-${stamp(now)}-seq${this.fileSeq}.json`);
  }

  /** Removes kept journals whose every batch the newest backup already contains. */
  private async dropJournalsCoveredByBackup(): Promise<void> {
    const backupSeq = Math.max(0, ...(await this.backups()).map((backup) => backup.seq));
    const ordered = [...this.kept].sort((a, b) => firstSeqOf(a) - firstSeqOf(b));
    const following = [...ordered.slice(1), ...this.retired, this.journal!.path];
    const stillNeeded: string[] = [];
    for (const [index, path] of ordered.entries()) {
      const lastSeq = firstSeqOf(following[index]!) - 1;
      if (lastSeq <= backupSeq) await unlink(path).catch(() => undefined);
      else stillNeeded.push(path);
    }
    this.kept = stillNeeded;
  }

  private async pruneBackups(): Promise<void> {
    for (const old of (await this.backups()).slice(this.options.backups))
      await unlink(old.path).catch(() => undefined);
  }

  async distrustDataFile(): Promise<void> {
    await unlink(join(this.dataDir, FINGERPRINT_FILE)).catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.journal?.close();
    this.journal = null;
  }
}

/**
 * Reads what is durable in a data folder (data file + journal batches) without changing anything: for
 * tools and tests that inspect a folder another process may be writing.
 */
export class ReadOnlyPersistence<Op> implements Persistence<Op> {
  constructor(private readonly dataDir: string) {}

  async load(validate: Validate): Promise<LoadedData<Op>> {
    const raw = await new DurableJsonFile<unknown>(join(this.dataDir, DATA_FILE_NAME)).read();
    const base = raw === null ? null : validate(raw);
    const files = (await readdir(this.dataDir)).filter((name) => JOURNAL_PATTERN.test(name)).sort();
    const entries: JournalEntry<Op>[] = [];
    for (const name of files)
      appendAll(entries, parseJournal<Op>(await readFile(join(this.dataDir, name))).entries);
    return { base, entries: entries.filter((entry) => entry.seq > (base?.journalSeq ?? 0)), notices: [] };
  }

  commit(): Promise<void> {
    return Promise.reject(new Error('This is a read-only view of the data folder.'));
  }

  needsCompaction(): boolean {
    return false;
  }

  async rotate(): Promise<void> {}

  async writeSnapshot(): Promise<void> {}

  async close(): Promise<void> {}
}

/** When a backup was made, from its name (`calendar-20261122T100000Z-…`); null for a name without it. */
function dateOfBackup(name: string): Date | null {
  const match = /^calendar-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(name);
  if (!match) return null;
  const [, year, month, day, hour, minute, second] = match;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The first batch a journal file holds, from its name (`journal-<first seq>.log`). */
function firstSeqOf(path: string): number {
  return Number(JOURNAL_PATTERN.exec(basename(path))![1]);
}

/** The journalSeq a backup's name records (`calendar-<time>-seq<N>.json`); 0 for older names. */
function seqOfBackup(path: string): number {
  const match = /-seq(\d+)\.json$/.exec(path);
  return match ? Number(match[1]) : 0;
}

/** Errors that mean "this file is damaged", as opposed to "this file cannot be read at all". */
function isDamage(error: unknown): boolean {
  return error instanceof SyntaxError || (error as { code?: string }).code === 'DATA_FILE_INVALID';
}
