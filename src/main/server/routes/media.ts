import Router from '@koa/router';
import type Koa from 'koa';
import getRawBody from 'raw-body';
import type { CalendarStore } from '../../store/store';
import { canUploadFiles, type MaybeCaller } from '../../core/capabilities';
import { saveUpload, UPLOAD_LIMIT, UPLOAD_TYPES } from '../../core/media';
import { ApiError, FORBIDDEN } from '../errors';
import type { Links } from '../links';

/** The path of the upload route, which takes a raw picture body instead of JSON. */
export const MEDIA_UPLOAD_PATH = '/media';

/** The original file name from `Content-Disposition: attachment; filename="…"`, if any. */
function fileNameOf(ctx: Koa.Context): string {
  const header = ctx.get('Content-Disposition');
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
  if (!match) return 'image';
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

/**
 * `POST /calendar-desk/v1/media`: a picture from the user's computer (the raw bytes, `Content-Type: image/…`),
 * copied into the data folder and recorded as a media item that events, venues and organizers can use as
 * `image` (by id). Answers `{id, url, extension}` like the records' `image`.
 */
export function mediaRoutes({ store, clock }: { store: CalendarStore; clock: () => Date }): Router {
  const router = new Router({ sensitive: false, strict: false });
  router.post(MEDIA_UPLOAD_PATH, async (ctx) => {
    const caller = (ctx.state as { caller: MaybeCaller }).caller;
    if (!caller) throw FORBIDDEN(false);
    if (!canUploadFiles(caller)) throw FORBIDDEN(true);
    const type = (ctx.request.type || '').toLowerCase();
    const accepted = UPLOAD_TYPES[type];
    if (!accepted) {
      throw new ApiError(
        415,
        'rest_upload_unsupported_type',
        `Pictures are uploaded as ${Object.keys(UPLOAD_TYPES).join(', ')}; "${type || 'no type'}" is not one of them.`,
      );
    }
    let bytes: Buffer;
    try {
      bytes = await getRawBody(ctx.req, {
        limit: UPLOAD_LIMIT,
        length: ctx.get('Content-Length') || undefined,
      });
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 413) {
        throw new ApiError(413, 'rest_upload_too_large', 'The picture is larger than the 10 MiB accepted.');
      }
      throw new ApiError(
        400,
        'rest_upload_incomplete',
        'The picture did not arrive completely: send it again.',
      );
    }
    if (bytes.length === 0 || !accepted.signature(bytes)) {
      throw new ApiError(
        400,
        'rest_upload_invalid',
        `The file is not a ${accepted.extension.toUpperCase()} picture.`,
      );
    }
    const media = await saveUpload(store, {
      bytes,
      type,
      originalName: fileNameOf(ctx),
      authorId: caller.userId,
      now: clock(),
    });
    const links = (ctx.state as { links: Links }).links;
    ctx.status = 201;
    ctx.body = {
      id: media.id,
      url: `${links.siteUrl}/media/${encodeURIComponent(media.fileName!)}`,
      extension: media.extension,
    };
  });
  /**
   * `GET /calendar-desk/v1/media?search=…`: the uploaded pictures whose stored file name contains the text
   * (uploaders only; at most 100), `[{id, url, extension, file}]`. A sync looks up an upload whose answer was
   * lost here before uploading the picture again.
   */
  router.get(MEDIA_UPLOAD_PATH, async (ctx) => {
    const caller = (ctx.state as { caller: MaybeCaller }).caller;
    if (!caller) throw FORBIDDEN(false);
    if (!canUploadFiles(caller)) throw FORBIDDEN(true);
    const search = typeof ctx.query.search === 'string' ? ctx.query.search.toLowerCase() : '';
    if (search === '') {
      throw new ApiError(400, 'rest_missing_callback_param', 'Give search=… (part of a file name).');
    }
    const links = (ctx.state as { links: Links }).links;
    // Only uploads that are on disk: a sync must never adopt one whose write may still fail.
    ctx.body = await store.readSettled(() =>
      [...store.media.values()]
        .filter((media) => media.fileName?.includes(search))
        .slice(0, 100)
        .map((media) => ({
          id: media.id,
          url: `${links.siteUrl}/media/${encodeURIComponent(media.fileName!)}`,
          extension: media.extension,
          file: media.fileName,
        })),
    );
  });
  return router;
}
