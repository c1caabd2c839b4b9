/**
 * A record's picture on the remote during one run: uploaded once per remote (shared by records sent at the same
 * time, found again after a lost answer), sent by address otherwise, remembered as the remote media id it
 * became, and uploaded anew when the remote's copy was deleted there.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LocalImage, LocalRecord, RemoteRecord } from '../model';
import { isUploadedCopyOf } from '../compare';
import { MEDIA_FILE_NAME, MEDIA_FOLDER, uploadTypeOf } from '../../core/media';
import { RemoteError } from '../remoteClient';
import { RecordProblem } from '../eventPassword';
import type { ExecuteContext } from './context';
import { isRefusal, sendOnce } from './sendOnce';

type StoredImage = LocalImage & { fileName: string };

export class RunPictures {
  /** Uploads under way, by local media id: records sent at the same time that share a picture share its upload. */
  private readonly uploading = new Map<number, Promise<number>>();

  constructor(private readonly context: ExecuteContext) {}

  /**
   * The `image` to send: an uploaded picture's remote id, a picture's web address as is. No picture: nothing
   * on create; on update `''` clears it, except for WordPress events, which refuse `''` and drop the picture
   * when `image` is absent (REFERENCE §5.2).
   */
  async imageToSend(record: LocalRecord, creating: boolean): Promise<{ image?: number | string }> {
    const image = record.image;
    if (image === undefined) return {};
    if (image === null) {
      if (creating || (record.kind === 'event' && this.context.client.mediaRoute?.kind === 'wordpress'))
        return {};
      return { image: '' };
    }
    // A picture by address the remote has already fetched (for another record): its copy there, by id, so the
    // site neither looks the address up among its media nor downloads it again for every event.
    if (image.fileName === null)
      return { image: this.context.links.remoteMediaIdOf(image.mediaId) ?? image.url };
    return { image: await this.uploadedImage({ ...image, fileName: image.fileName }) };
  }

  /** A picture sent by address: the remote media id it became, so later plans compare ids. */
  async rememberImage(record: LocalRecord, answer: RemoteRecord): Promise<void> {
    const { links } = this.context;
    const image = record.image;
    if (!image || image.fileName !== null) return;
    const remoteId = typeof answer.fields.image === 'number' ? answer.fields.image : null;
    const known = links.mediaLink(image.mediaId);
    if (known && known.remoteId === remoteId) return;
    await links.putMedia({ localId: image.mediaId, remoteId, pendingFile: null });
  }

  /**
   * An adopted record whose remote shows its picture: the upload of its file (the same calendar pushed before
   * under another address), or the same address (another Calendar Desk keeps addresses as they are). That
   * remote picture is this one on this remote: later plans compare its id (the record as a sync last saw it
   * keeps no address), and a file is never uploaded again.
   */
  async adoptPicture(record: LocalRecord, remote: RemoteRecord): Promise<void> {
    const { links } = this.context;
    const image = record.image;
    if (!image || links.remoteMediaIdOf(image.mediaId) !== null) return;
    if (typeof remote.fields.image !== 'number' || !remote.imageUrl) return;
    const shown = image.fileName
      ? isUploadedCopyOf(image, remote.imageUrl.split('/').pop() ?? '')
      : remote.imageUrl === image.url;
    if (!shown) return;
    await links.putMedia({ localId: image.mediaId, remoteId: remote.fields.image, pendingFile: null });
  }

  /**
   * Sends a record; when the remote refuses its `image` because an uploaded picture's remote copy is gone
   * (deleted there), it is forgotten and uploaded again, once. Any other refused picture is named in the error.
   */
  async withPicture<T>(record: LocalRecord, send: () => Promise<T>): Promise<T> {
    const { client, links } = this.context;
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
      const remoteMediaId = links.remoteMediaIdOf(image.mediaId);
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
  }

  /** The upload of a picture, shared by the records sent at the same time that show it. */
  private uploadedImage(image: StoredImage): Promise<number> {
    let upload = this.uploading.get(image.mediaId);
    if (!upload) {
      upload = this.uploadImageOnce(image).finally(() => this.uploading.delete(image.mediaId));
      this.uploading.set(image.mediaId, upload);
    }
    return upload;
  }

  /** An uploaded picture's remote id: uploaded once per remote, an unknown outcome looked up before a new try. */
  private async uploadImageOnce(image: StoredImage): Promise<number> {
    const { client, links, options, summary } = this.context;
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
      this.context.progress({
        type: 'upload',
        fileName: image.fileName,
        remoteId,
        uploaded: summary.uploaded,
      });
      return remoteId;
    };
    return sendOnce(this.context, {
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
  }
}
