import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ADMIN_NAMESPACE } from '../../shared/enums';
import { ADMIN_TOKEN_FILE } from '../core/users';
import { parseToken } from '../core/credentials';
import { ownerIsGone, type FolderLockedError } from '../store/lock';

/** A command could not go through the server that owns the folder: the message says what to do. */
export class OwnerServerError extends Error {
  readonly code = 'OWNER_SERVER_UNUSABLE';
  constructor(
    message: string,
    /** The server's own error code and data, when it answered one (`import_source_exists`…). */
    readonly answer: { code?: string; data?: Record<string, unknown> } = {},
  ) {
    super(message);
  }
}

/** Only a server of this machine gets the admin token: an API root on loopback, over plain HTTP. */
const LOOPBACK_ROOT = /^http:\/\/(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|localhost)(:\d+)?\/wp-json\/$/i;

const STOP_IT = 'Stop that server (Ctrl+C where it runs) and run the command again.';

/** A user as the admin namespace answers it. */
export interface RemoteUser {
  id: number;
  login: string;
  name: string;
  role: string;
  created_utc: string;
  credentials: number;
}

/** The running server that owns a data folder, reached with the folder's admin token. */
export interface OwnerServer {
  apiRoot: string;
  /**
   * Calls `calendar-desk/v1/<path>` as the admin; an error answer becomes an {@link OwnerServerError}.
   * `timeoutMs` (default 15 s): longer for a call that itself waits on another site.
   */
  call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, timeoutMs?: number): Promise<T>;
}

/**
 * The server a {@link FolderLockedError} names, when the command can go through it: the owner runs here,
 * records a loopback API root, and the folder's admin token file holds a token. `null` when the owner is
 * not a server (yet); an {@link OwnerServerError} when it is one this command cannot use.
 */
export async function ownerServerOf(locked: FolderLockedError): Promise<OwnerServer | null> {
  const owner = locked.owner;
  if (!owner?.apiRoot || ownerIsGone(owner)) return null;
  const apiRoot = owner.apiRoot;
  const inUse = `The data folder ${locked.dataDir} is in use by the server at ${apiRoot} (process ${owner.pid})`;
  if (!LOOPBACK_ROOT.test(apiRoot)) {
    throw new OwnerServerError(`${inUse}, which is not a loopback address. ${STOP_IT}`);
  }
  const tokenFile = join(locked.dataDir, ADMIN_TOKEN_FILE);
  const token = await readFile(tokenFile, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  if (!parseToken(token)) {
    throw new OwnerServerError(
      `${inUse}, and its admin token file ${tokenFile} is missing or damaged, so this command cannot go through it. ${STOP_IT}`,
    );
  }
  return {
    apiRoot,
    async call<T>(
      method: 'GET' | 'POST' | 'DELETE',
      path: string,
      body?: unknown,
      timeoutMs = 15_000,
    ): Promise<T> {
      let response: Response;
      try {
        response = await fetch(`${apiRoot}${ADMIN_NAMESPACE}/${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${token}`,
            ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          },
          body: body !== undefined ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
        throw new OwnerServerError(`${inUse}, but that server does not answer (${cause}). ${STOP_IT}`);
      }
      const text = await response.text();
      let answer: unknown;
      try {
        answer = text ? JSON.parse(text) : undefined;
      } catch {
        answer = undefined;
      }
      if (response.ok && answer !== undefined) return answer as T;
      const message = (answer as { message?: unknown } | undefined)?.message;
      const said = typeof message === 'string' ? message : `HTTP ${response.status}`;
      if (response.status === 401 || response.status === 403) {
        throw new OwnerServerError(
          `${inUse}, and it refused the admin token of ${tokenFile}: ${said} ${STOP_IT}`,
        );
      }
      if (response.status === 404 && (answer as { code?: unknown } | undefined)?.code === 'rest_no_route') {
        throw new OwnerServerError(`${inUse}, a version that cannot do this. ${STOP_IT}`);
      }
      // The server's own verdict (a login that exists, an unknown user…): its message is the whole story.
      const { code, data } = (answer ?? {}) as { code?: unknown; data?: unknown };
      throw new OwnerServerError(said, {
        ...(typeof code === 'string' ? { code } : {}),
        ...(data && typeof data === 'object' ? { data: data as Record<string, unknown> } : {}),
      });
    },
  };
}
