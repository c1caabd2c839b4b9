import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { prepareDataFolder } from '../core/dataFolder';
import { writeFileDurably } from './durableJsonFile';

/** What the owner of a data folder records about itself, so that others can name it or talk to it. */
export interface FolderOwner {
  pid: number;
  startedAt: string;
  /** The API root of the server that owns the folder, when it is a server. */
  apiRoot?: string;
}

const OWNER_FILE = 'owner.json';
export const LOCK_NAME = 'calendar-desk.lock';
const STALE_MS = 10_000;

/** Whether a process of this machine with that pid exists (the owner may have crashed). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class FolderLockedError extends Error {
  readonly code = 'DATA_FOLDER_IN_USE';
  constructor(
    readonly dataDir: string,
    readonly owner: FolderOwner | null,
  ) {
    const who = owner
      ? `process ${owner.pid}${owner.apiRoot ? ` (serving ${owner.apiRoot})` : ''}`
      : 'another process';
    const advice =
      owner && !isRunning(owner.pid)
        ? `Process ${owner.pid} no longer runs here: its lock expires ${STALE_MS / 1000} s after it stopped, then try again.`
        : 'Stop that instance first, or use another folder with --data.';
    super(`The data folder ${dataDir} is in use by ${who}. ${advice}`);
  }
}

/**
 * Takes the single-owner lock of a data folder. proper-lockfile keeps the lock fresh while we run and treats
 * a lock that was not refreshed for `stale` ms as left by a crashed process, so it can be taken over.
 */
export async function lockDataFolder(dataDir: string, owner: Omit<FolderOwner, 'pid' | 'startedAt'> = {}) {
  await prepareDataFolder(dataDir);
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, {
      lockfilePath: join(dataDir, LOCK_NAME),
      stale: STALE_MS,
      update: 2_000,
      realpath: false,
      onCompromised: (error) => {
        // Someone removed or took our lock: writing on would risk two writers. Stop loudly.
        console.error(`calendar-desk: lost the lock of ${dataDir}: ${error.message}`);
        process.exit(70);
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new FolderLockedError(dataDir, await readFolderOwner(dataDir));
    }
    throw error;
  }
  const record: FolderOwner = { pid: process.pid, startedAt: new Date().toISOString(), ...owner };
  // Written whole (temp file + rename) so that a process that is refused never reads half a record.
  const saveOwner = () => writeFileDurably(join(dataDir, OWNER_FILE), JSON.stringify(record));
  try {
    await saveOwner();
  } catch (error) {
    await release().catch(() => undefined);
    throw error;
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

export type FolderLock = Awaited<ReturnType<typeof lockDataFolder>>;

/** The owner recorded in a data folder, if any (it may be stale). */
export async function readFolderOwner(dataDir: string): Promise<FolderOwner | null> {
  try {
    return JSON.parse(await readFile(join(dataDir, OWNER_FILE), 'utf8')) as FolderOwner;
  } catch {
    return null;
  }
}
