/**
 * Reading the body of another server's answer (a remote's REST API, a calendar address) whole, but never more
 * than a size limit and never past a deadline: such a server is not trusted to send a sane amount at a sane
 * pace. The body is streamed, so one over the limit is never held in memory beyond the limit.
 */

/** The most one answer of a remote may hold: a page of 50 events or of changes is far below it. */
export const REMOTE_ANSWER_MAX_BYTES = 32 * 1024 * 1024;

/** Why a body was not read: over the size limit, the signal aborted (deadline or cancel), the connection broke. */
export type BodyFailure = 'too_large' | 'aborted' | 'broken';

/** A body that was not read whole; the caller words it for its user (it knows the address and the limits). */
export class BodyReadError extends Error {
  constructor(
    readonly reason: BodyFailure,
    message: string,
  ) {
    super(message);
  }
}

/** The size in words (`32 MiB`, `512 KiB`). */
export const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : `${Math.round(bytes / 1024)} KiB`;

/**
 * The body of `response` as bytes (decompressed by fetch): refused at once when its declared length passes
 * `maxBytes`, else as soon as what arrived does; abandoned the moment `signal` aborts (give the signal of the
 * whole exchange, so a body dripped byte by byte has the same deadline as a slow connection).
 */
export async function readBoundedBody(
  response: Response,
  limits: { maxBytes: number; signal?: AbortSignal },
): Promise<Buffer> {
  const { maxBytes, signal } = limits;
  const tooLarge = () => new BodyReadError('too_large', `The answer is larger than ${sizeText(maxBytes)}.`);
  const aborted = () => new BodyReadError('aborted', 'The answer was abandoned before it ended.');
  const declared = Number(response.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes && !response.headers.get('content-encoding')) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const reader: ReadableStreamDefaultReader<Uint8Array> | undefined = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  if (signal?.aborted) {
    await reader.cancel().catch(() => undefined);
    throw aborted();
  }
  let onAbort = () => {};
  const abandoned = new Promise<never>((_, reject) => {
    onAbort = () => reject(aborted());
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  abandoned.catch(() => undefined);
  const chunks: Uint8Array[] = [];
  let size = 0;
  let finished = false;
  try {
    for (;;) {
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await Promise.race([reader.read(), abandoned]);
      } catch (error) {
        if (error instanceof BodyReadError || signal?.aborted) throw aborted();
        throw new BodyReadError(
          'broken',
          `The connection broke while the answer was read (${String(error)}).`,
        );
      }
      if (read.done) {
        finished = true;
        break;
      }
      size += read.value.byteLength;
      if (size > maxBytes) throw tooLarge();
      chunks.push(read.value);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!finished) await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks, size);
}
