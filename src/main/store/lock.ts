import { readFile, rm, rmdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { prepareDataFolder } from './dataFolder';
import { writeFileDurably } from './durableJsonFile';
import { queueFileWrite } from './fileWriteQueue';
import { isRunning, PROCESS_STATE_READABLE, waitUntilGone } from './processes';

/** What the owner of a data folder records about itself, so that others can name it or talk to it. */
export interface FolderOwner {
  pid: number;
  startedAt: string;
  /** The machine the owner runs on: its pid means something only there. */
  host?: string;
  /** The API root of the server that owns the folder, when it is a server. */
  apiRoot?: string;
  /** The identity (`dev:ino`) of the lock directory this owner created. */
  lockId?: string;
}

const OWNER_FILE = 'owner.json';
export const LOCK_NAME = 'calendar-desk.lock';
/** Taken only while a stale lock is being replaced, so that two processes never replace it both. */
const TAKEOVER_NAME = 'calendar-desk.takeover';
/** A lock not refreshed for this long belongs to a process that stopped (or froze): it may be taken over. */
const STALE_MS = 10_000;
/** How often the owner refreshes its lock. */
const UPDATE_MS = 2_000;
/**
 * proper-lockfile never judges our lock stale by itself: every takeover goes through `takeOver()`, under
 * the takeover lock, so that no process removes a lock another one has just taken.
 */
const NEVER_STALE = 2 ** 31 - 1;

/**
 * How long a takeover waits for an owner that still seems to run, where a killed process cannot be told from
 * a live one (no `/proc`): a crashed owner lingers as a zombie until its parent collects it.
 */
const ZOMBIE_WAIT_MS = 2_000;

/** Whether the recorded owner ran on this machine, so that its pid can be checked here. */
const ownerIsHere = (owner: FolderOwner) =>
  owner.host === hostname() && Number.isInteger(owner.pid) && owner.pid > 0;

/**
 * Whether the recorded owner is known to be gone: it ran on this machine and its process no longer runs
 * (it exited, or was killed and lingers as a zombie). An owner of another machine (a shared folder), or a
 * record without its machine, cannot be checked.
 */
export function ownerIsGone(owner: FolderOwner): boolean {
  return ownerIsHere(owner) && !isRunning(owner.pid);
}

export class FolderLockedError extends Error {
  readonly code = 'DATA_FOLDER_IN_USE';
  constructor(
    readonly dataDir: string,
    readonly owner: FolderOwner | null,
    /** How long we waited for the owner to end before giving up (where a zombie looks alive). */
    waitedMs = 0,
  ) {
    const who = owner
      ? `process ${owner.pid}${owner.host && owner.host !== hostname() ? ` on ${owner.host}` : ''}${owner.apiRoot ? ` (serving ${owner.apiRoot})` : ''}`
      : 'another process';
    const advice =
      owner && owner.host && owner.host !== hostname()
        ? `Stop it on ${owner.host} first (a lock it left behind expires ${STALE_MS / 1000} s after it stopped), or use another folder with --data.`
        : owner && !isRunning(owner.pid)
          ? `Process ${owner.pid} no longer runs here: try again.`
          : waitedMs > 0
            ? `It still ran ${waitedMs / 1000} s later: stop that instance first, or use another folder with --data.`
            : 'Stop that instance first, or use another folder with --data.';
    super(`The data folder ${dataDir} is in use by ${who}. ${advice}`);
  }
}

const lockIdOf = (info: { dev: number; ino: number }) => `${info.dev}:${info.ino}`;

const isLocked = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ELOCKED';

/**
 * Takes the single-owner lock of a data folder (a `calendar-desk.lock` directory, refreshed every 2 s while
 * we run) and records who owns it in `owner.json`. A lock left by a crashed process is taken over at once
 * when its owner is known to be gone (a pid of this machine that no longer exists), else once it has not
 * been refreshed for 10 s. A live owner keeps it: the caller gets a {@link FolderLockedError} naming it.
 */
export async function lockDataFolder(dataDir: string, owner: Omit<FolderOwner, 'pid' | 'startedAt'> = {}) {
  await prepareDataFolder(dataDir);
  const record: FolderOwner = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    host: hostname(),
    ...owner,
  };
  // Written whole (temp file + rename) so that a process that is refused never reads half a record.
  const ownerFile = join(dataDir, OWNER_FILE);
  const saveOwner = () =>
    queueFileWrite(ownerFile, () => writeFileDurably(ownerFile, JSON.stringify(record)));

  /** One attempt: the lock directory, then the owner record (undone if the record cannot be written). */
  const acquire = async () => {
    const lockDir = join(dataDir, LOCK_NAME);
    const release = await lockfile.lock(dataDir, {
      lockfilePath: lockDir,
      stale: NEVER_STALE,
      update: UPDATE_MS,
      realpath: false,
      onCompromised: (error) => {
        // Someone removed or took our lock: writing on would risk two writers. Stop loudly.
        console.error(`calendar-desk: lost the lock of ${dataDir}: ${error.message}`);
        process.exit(70);
      },
    });
    try {
      record.lockId = lockIdOf(await stat(lockDir));
      await saveOwner();
    } catch (error) {
      await release().catch(() => undefined);
      throw error;
    }
    return release;
  };

  let release: () => Promise<void>;
  try {
    release = await acquire();
  } catch (error) {
    if (!isLocked(error)) throw error;
    release = await takeOver(dataDir, acquire);
  }
  return {
    async setApiRoot(apiRoot: string) {
      record.apiRoot = apiRoot;
      await saveOwner();
    },
    async release() {
      await rm(join(dataDir, OWNER_FILE), { force: true });
      await release();
    },
  };
}

/**
 * The lock is held: under the takeover lock, look again at the lock and its owner. A lock whose owner is
 * gone (or that nobody refreshed for {@link STALE_MS}) is removed with its owner record and taken once;
 * anything else is a live owner, and the answer a {@link FolderLockedError}.
 *
 * Removing a lock is safe because every takeover happens under the takeover lock and re-reads the state
 * there (two processes never remove the same lock, nor one the other has just taken), a takeover removes
 * the crashed owner's record before its lock, and a record is believed only beside the very lock
 * directory it names (`lockId`): a record left behind (e.g. by an exit that removed only the lock) never
 * condemns the lock of a process that has not yet written its own.
 */
async function takeOver(
  dataDir: string,
  acquire: () => Promise<() => Promise<void>>,
): Promise<() => Promise<void>> {
  const lockDir = join(dataDir, LOCK_NAME);
  const refuse = async () => new FolderLockedError(dataDir, await readFolderOwner(dataDir));
  const releaseTakeover = await lockfile
    .lock(join(dataDir, TAKEOVER_NAME), {
      lockfilePath: join(dataDir, `${TAKEOVER_NAME}.lock`),
      realpath: false,
      stale: STALE_MS,
      update: UPDATE_MS,
      // A process killed during a takeover leaves this lock behind: it is stale after 10 s, so wait longer.
      retries: { retries: 150, factor: 1.2, minTimeout: 10, maxTimeout: 100 },
      onCompromised: () => undefined,
    })
    .catch(async (error: unknown) => {
      throw isLocked(error) ? await refuse() : error;
    });
  try {
    const info = await stat(lockDir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (info) {
      const owner = await readFolderOwner(dataDir);
      // The record must be that of this very lock: one left beside a lock taken since is not its owner.
      const recordsThisLock =
        owner !== null && (owner.lockId === undefined || owner.lockId === lockIdOf(info));
      let gone = recordsThisLock && ownerIsGone(owner);
      let waitedMs = 0;
      if (recordsThisLock && !gone && !PROCESS_STATE_READABLE && ownerIsHere(owner)) {
        // A zombie looks alive here: give a crashed owner's parent a moment to collect it.
        gone = await waitUntilGone(owner.pid, ZOMBIE_WAIT_MS);
        waitedMs = ZOMBIE_WAIT_MS;
      }
      const abandoned = gone || info.mtimeMs < Date.now() - STALE_MS;
      if (!abandoned) throw new FolderLockedError(dataDir, owner, waitedMs);
      // The record first: whoever looks next must never read the crashed owner's record beside a new lock.
      await rm(join(dataDir, OWNER_FILE), { force: true });
      await rmdir(lockDir).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
    try {
      return await acquire();
    } catch (error) {
      throw isLocked(error) ? await refuse() : error;
    }
  } finally {
    await releaseTakeover().catch(() => undefined);
  }
}

export type FolderLock = Awaited<ReturnType<typeof lockDataFolder>>;

/** The owner recorded in a data folder, if any (it may be stale). */
export async function readFolderOwner(dataDir: string): Promise<FolderOwner | null> {
  try {
    const owner = JSON.parse(await readFile(join(dataDir, OWNER_FILE), 'utf8')) as FolderOwner | null;
    return owner && typeof owner === 'object' && typeof owner.pid === 'number' ? owner : null;
  } catch {
    return null;
  }
}
