/**
 * Sending what must never be stored twice on the remote (a create, a picture upload) when an answer can be
 * lost: the retry rule that looks for a lost success before trying again, and what counts as a sure refusal.
 */
import { RemoteError } from '../remoteClient';
import { backoffDelay } from '../remoteTransport';
import type { ExecuteContext } from './context';

/** The steps of one send-once: how to send, recover, forget the checkpoint and look up a lost success. */
export interface SendOnceSteps<T> {
  send: () => Promise<T>;
  refused: (error: RemoteError) => boolean;
  forget: () => Promise<void>;
  lookUp: () => Promise<T | null>;
  recover?: (error: RemoteError) => Promise<T | null>;
}

/**
 * Sends something that must not be stored twice on the remote (a create, an upload), with a checkpoint
 * already written. A refusal surely stored nothing: the checkpoint is forgotten. A lost answer may hide a
 * success: before the next try, `lookUp` searches the remote for what the lost try stored.
 */
export async function sendOnce<T>(context: ExecuteContext, steps: SendOnceSteps<T>): Promise<T> {
  const { options } = context;
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
      context.progress({ type: 'retry', attempt: attempt + 1, waitMs: 0, reason: error.message });
      await context.sleep(backoffDelay(attempt, options.backoffMs ?? 500));
      const found = await steps.lookUp();
      if (found !== null) return found;
    }
  }
}

/** An answer that surely stored nothing: the remote refused the request (not a 5xx nor a 429). */
export function isRefusal(error: RemoteError): boolean {
  return error.status !== null && error.status < 500 && error.status !== 429;
}
