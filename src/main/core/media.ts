import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { StorageUnavailableError, type CalendarStore } from '../store/store';
import { describeWriteFailure, storageRefusalOf } from '../store/storageRefusal';
import type { StoredMedia } from '../store/schema';
import { removeAbandonedCopies, writeFileDurably } from '../store/durableJsonFile';
import { utcSqlNow } from './dates/sqlDates';
import { slugify } from './slugs';
import type { MaybeCaller } from './capabilities';
import { checkWriteBudget, pictureWeight, withinWriteBudget } from './writeBudget';

/** Where uploaded pictures live in the data folder; served under `/media/`. */
export const MEDIA_FOLDER = 'media';
/** Larger pictures are refused: an event image needs no more. */
export const UPLOAD_LIMIT = 10 * 1024 * 1024;

/**
 * The picture types accepted, with the bytes each file starts with. SVG is refused: it can carry scripts.
 */
export const UPLOAD_TYPES: Record<string, { extension: string; signature: (bytes: Buffer) => boolean }> = {
  'image/jpeg': {
    extension: 'jpg',
    signature: (bytes) => bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
  },
  'image/png': {
    extension: 'png',
    signature: (bytes) =>
      bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  'image/gif': {
    extension: 'gif',
    signature: (bytes) => /^GIF8[79]a/.test(bytes.subarray(0, 6).toString('latin1')),
  },
  'image/webp': {
    extension: 'webp',
    signature: (bytes) =>
      bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
      bytes.subarray(8, 12).toString('latin1') === 'WEBP',
  },
};

/** The file type a web address names (`https://x.org/a/photo.JPG?s=1` → `jpg`), or `''` when its path has none. */
export function urlExtension(url: string): string {
  try {
    const match = /\.([a-z0-9]{2,5})$/i.exec(new URL(url).pathname);
    // `…/2024.10` is a version or a date, not a file type.
    return match && /[a-z]/i.test(match[1]!) ? match[1]!.toLowerCase() : '';
  } catch {
    return '';
  }
}

/** File types of pictures (WordPress' image types, and the others browsers show). */
export const IMAGE_EXTENSIONS = new Set([
  'jpg', 'jpeg', 'jpe', 'png', 'gif', 'webp', 'avif', 'bmp', 'ico', 'svg', 'heic', 'heif', 'tif', 'tiff',
]); // prettier-ignore

/** The accepted picture type of a stored file name, by its extension (undefined: not a picture we store). */
export function uploadTypeOf(fileName: string): string | undefined {
  const extension = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  return Object.keys(UPLOAD_TYPES).find((type) => UPLOAD_TYPES[type]!.extension === extension);
}

/** A stored file name: only these can be served, so a request can never name another file. */
export const MEDIA_FILE_NAME = /^[a-f0-9]{12}-[a-z0-9-]{1,80}\.(?:jpg|png|gif|webp)$/;

export interface Upload {
  bytes: Buffer;
  type: string;
  /** The name the user's file had, for a readable file name. */
  originalName: string;
  authorId: number;
  now: Date;
  /** Who uploads: an author's pictures count in their hourly write budget (core/writeBudget.ts). */
  caller?: MaybeCaller;
}

/**
 * Copies an uploaded picture into the data folder and records it as a media item. The file is on disk
 * (fsynced) before the record is committed, so a record never points to a missing file; a crash in
 * between leaves only an unused file.
 */
export async function saveUpload(store: CalendarStore, upload: Upload): Promise<StoredMedia> {
  // Before the file: a picture whose record cannot be saved would only lie around.
  store.assertWritable();
  const call = { store, caller: upload.caller ?? null, now: upload.now };
  const weight = pictureWeight(upload.bytes.length);
  checkWriteBudget(call, { creates: weight, occurrences: 0 }, weight > 1);
  const { extension } = UPLOAD_TYPES[upload.type]!;
  const base =
    slugify(upload.originalName.replace(/\.[a-z0-9]+$/i, ''))
      .replace(/[^a-z0-9-]/g, '')
      .slice(0, 80) || 'image';
  const fileName = `${randomBytes(6).toString('hex')}-${base}.${extension}`;
  const folder = join(store.dataDir, MEDIA_FOLDER);
  try {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await writeFileDurably(join(folder, fileName), upload.bytes);
  } catch (error) {
    // A full or read-only disk is not a bug: the caller is told why (503), like for any other write.
    if (!storageRefusalOf(error)) throw error;
    throw new StorageUnavailableError(
      `the picture could not be stored: ${describeWriteFailure(error, store.dataDir)}`,
    );
  }
  return withinWriteBudget(
    call,
    (tx) => {
      const media: StoredMedia = {
        id: tx.nextPostId(),
        url: `/media/${fileName}`,
        extension,
        fileName,
        authorId: upload.authorId,
        dateUtc: utcSqlNow(upload.now),
      };
      tx.putMedia(media);
      return media;
    },
    { creates: weight, occurrences: 0 },
    weight,
  );
}

/** Where pictures without a record are moved, out of reach of `/media/`, for a while. */
export const ORPHANED_FOLDER = '.orphaned';
const KEEP_ORPHANS_MS = 30 * 86_400_000;

/**
 * Tidies the media folder at start, while no upload can be under way. A picture file without a media record
 * is what a crash or a failed commit between file and record leaves (the file is written first; that
 * upload was never acknowledged), but also what an older data file put back by hand no longer knows: so it
 * is moved to `media/.orphaned/` and deleted from there only after 30 days. Half-written temporary copies
 * of pictures that no running process is writing are deleted.
 */
export async function setAsideOrphanedUploads(store: CalendarStore): Promise<void> {
  const folder = join(store.dataDir, MEDIA_FOLDER);
  const names = await readdir(folder).catch(() => [] as string[]);
  const recorded = new Set([...store.media.values()].map((media) => media.fileName));
  const orphans = names.filter((name) => MEDIA_FILE_NAME.test(name) && !recorded.has(name));
  const aside = join(folder, ORPHANED_FOLDER);
  if (orphans.length > 0) await mkdir(aside, { recursive: true, mode: 0o700 });
  for (const name of orphans) await rename(join(folder, name), join(aside, name)).catch(() => undefined);
  await removeAbandonedCopies(folder, (name) => MEDIA_FILE_NAME.test(name));
  for (const name of await readdir(aside).catch(() => [] as string[])) {
    const info = await stat(join(aside, name)).catch(() => null);
    if (info && Date.now() - info.mtimeMs > KEEP_ORPHANS_MS)
      await unlink(join(aside, name)).catch(() => undefined);
  }
}
