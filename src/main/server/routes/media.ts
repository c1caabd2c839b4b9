import type Koa from 'koa';
import getRawBody from 'raw-body';
import { saveUpload, UPLOAD_LIMIT, UPLOAD_TYPES } from '../../core/media';
import type { StoredMedia } from '../../store/schema';
import { ApiError, refusedWrite } from '../errors';
import type { Links } from '../links';
import { mediaSearchArgs } from '../args/adminArgs';
import { uploaders } from './permissions';
import { endpoint, type ApiRequest, type ApiResponse, type BareRequest, type RouteDef } from './table';

/** The original file name from `Content-Disposition: attachment; filename="…"`, if any. */
function fileNameOf(ctx: Koa.Context): string {
  const header = ctx.get('Content-Disposition');
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
  if (!match) return 'image';
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}

/** Where an uploaded picture is served. */
const mediaUrl = (links: Links, media: StoredMedia) =>
  `${links.siteUrl}/media/${encodeURIComponent(media.fileName!)}`;

/**
 * `POST /calendar-desk/v1/media`: a picture from the user's computer (the raw bytes, `Content-Type: image/…`),
 * copied into the data folder and recorded as a media item that events, venues and organizers can use as
 * `image` (by id). Answers `{id, url, extension}` like the records' `image`. Read only once the permission
 * check passed, so nobody without it gets as far as sending 10 MiB.
 */
async function upload(request: BareRequest): Promise<ApiResponse> {
  const { ctx, store, links } = request;
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
    authorId: request.caller!.userId,
    now: request.now,
    caller: request.caller,
  }).catch(refusedWrite);
  return { status: 201, body: { id: media.id, url: mediaUrl(links, media), extension: media.extension } };
}

/**
 * `GET /calendar-desk/v1/media?search=…`: the uploaded pictures whose stored file name contains the text
 * (at most 100), `[{id, url, extension, file}]`. A sync looks up an upload whose answer was lost here before
 * uploading the picture again. Only uploads that are on disk: the dispatcher settles reads first, so a sync
 * never adopts one whose write may still fail.
 */
function search(request: ApiRequest<typeof mediaSearchArgs>): ApiResponse {
  const text = request.args.search!.toLowerCase();
  return {
    body: [...request.store.media.values()]
      .filter((media) => media.fileName?.includes(text))
      .slice(0, 100)
      .map((media) => ({
        id: media.id,
        url: mediaUrl(request.links, media),
        extension: media.extension,
        file: media.fileName,
      })),
  };
}

/** The pictures of the admin namespace, for users who may upload files. */
export function mediaRoutes(): RouteDef[] {
  return [
    {
      pattern: '/media',
      path: '/media',
      docPath: '/media',
      endpoints: [
        endpoint({
          methods: ['POST'],
          args: {},
          permission: uploaders,
          rawBody: true,
          handle: upload,
          doc: { summary: 'Upload a picture', responses: { '201': { description: 'The media item' } } },
        }),
        endpoint({
          methods: ['GET'],
          args: mediaSearchArgs,
          permission: uploaders,
          handle: search,
          doc: { summary: 'Find uploaded pictures', responses: { '200': { description: 'Media items' } } },
        }),
      ],
    },
  ];
}
