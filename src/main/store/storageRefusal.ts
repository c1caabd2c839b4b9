/** A change that cannot be saved: the store is closed or read-only, or its write failed. */
export class StorageUnavailableError extends Error {
  readonly code = 'STORAGE_UNAVAILABLE';
}

/**
 * A write refused part-way whose earlier parts could not be taken back either (a large import on a disk that
 * fills up): its message is whole, saying what stays written, and is answered as it is (503).
 */
export class PartlySavedError extends StorageUnavailableError {}

/** Why the disk refuses to store anything, when that is the state of the disk and not a bug. */
export type StorageRefusal = 'full' | 'read-only' | 'not-writable';

const REFUSALS: Record<string, StorageRefusal> = {
  ENOSPC: 'full',
  EDQUOT: 'full',
  EROFS: 'read-only',
  EACCES: 'not-writable',
  EPERM: 'not-writable',
};

/** The refusal an error of a write stands for (looking through wrapped causes), or null for anything else. */
export function storageRefusalOf(error: unknown): StorageRefusal | null {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && code in REFUSALS) return REFUSALS[code]!;
    cause = (cause as { cause?: unknown }).cause;
  }
  return null;
}

/** What happened, and what the user can do about it, in a volunteer's words. */
export function explainRefusal(refusal: StorageRefusal, dataDir: string): { what: string; todo: string } {
  switch (refusal) {
    case 'full':
      return {
        what: `the disk that holds the data folder ${dataDir} is full`,
        todo: 'free some space on that disk',
      };
    case 'read-only':
      return {
        what: `the data folder ${dataDir} is on a disk that is mounted read-only`,
        todo: 'make that disk writable, or copy the folder to a writable disk and use it with --data',
      };
    case 'not-writable':
      return {
        what: `the data folder ${dataDir} (or a file in it) is not writable by you`,
        todo: 'give yourself write permission on it, or copy the folder and use the copy with --data',
      };
  }
}

/** Why a write failed, for a message: the disk's state and what to do when that is the cause, else the error. */
export function describeWriteFailure(error: unknown, dataDir: string): string {
  const refusal = storageRefusalOf(error);
  if (!refusal) return (error as Error)?.message ?? String(error);
  const { what, todo } = explainRefusal(refusal, dataDir);
  return `${what}; ${todo}`;
}
