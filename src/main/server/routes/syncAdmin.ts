import { z } from 'zod';
import type { CalendarStore } from '../../store/store';
import { ApiError } from '../errors';
import { adHocSyncSchema, remoteCheckSchema, syncRunSchema } from '../../../shared/schemas/sync';
import { adHocSyncOptions } from '../../sync/sync';
import { findAnyRemote, runAnySync } from '../../caldavSync/anyRemote';
import { SyncJobs } from '../../sync/jobs';
import { RemoteError, type RemoteAuth } from '../../sync/remoteClient';
import { fieldOf } from '../../sync/remoteCheck';
import type { SecretBox } from '../../sync/secretBox';
import {
  authOf,
  boundOriginOf,
  originOf,
  presentRemote,
  remoteInputSchema,
  saveRemotes,
  savedRemotes,
  secretFor,
} from '../../sync/remotes';
import { adminEndpoint, adminRoute, bodyOf, parse } from './adminEndpoints';
import type { ApiResponse, BareRequest, RouteDef } from './table';

/**
 * A remote's failure as an API error (502: the trouble is on the other server), with its own code, the form
 * field it is about, and for a failed connection its kind (`network`: ENOTFOUND…, for the UI to word).
 */
function remoteFailure(error: unknown): never {
  if (error instanceof RemoteError) {
    throw new ApiError(502, error.code.toLowerCase(), error.message, {
      remote_status: error.status,
      field: fieldOf(error),
      ...(typeof error.data.network === 'string' ? { network: error.data.network } : {}),
      ...(error.remoteCode ? { remote_code: error.remoteCode } : {}),
      // A CalDAV account's calendars, when one must be chosen by name.
      ...(Array.isArray(error.data.calendars) ? { calendars: error.data.calendars } : {}),
    });
  }
  throw error;
}
/** A preview answers within this per request (and retries once): the user is waiting on the screen. */
const PREVIEW_LIMITS = { attempts: 2, timeoutMs: 15_000 };

/**
 * The sync part of the admin namespace (administrators only): saved remotes (secrets sealed by the
 * SecretBox, never returned), dry runs and background sync jobs with progress (imports: routes/imports.ts).
 */
export function syncAdminRoutes({
  store,
  clock,
  secretBox,
}: {
  store: CalendarStore;
  clock: () => Date;
  secretBox: SecretBox;
}): RouteDef[] {
  const jobs = new SyncJobs(runAnySync);
  const remoteById = (id: string) => {
    const remote = savedRemotes(store).find((candidate) => candidate.id === id);
    if (!remote) throw new ApiError(404, 'remote_not_found', `There is no saved remote "${id}".`);
    return remote;
  };
  const startJob = (options: Parameters<SyncJobs['start']>[0]): ApiResponse => {
    if (jobs.busy)
      throw new ApiError(409, 'sync_running', 'A sync is already running: wait for it to finish.');
    const status = jobs.start(options);
    return { status: 202, headers: { Location: `sync-jobs/${status.id}` }, body: status };
  };
  const remoteOf = (request: BareRequest) => {
    const remote = remoteById(String(request.raw.id));
    const auth = authOf(remote, secretBox);
    if (auth === null && remote.authType !== 'none') {
      const what = remote.authType === 'token' ? 'token' : 'application password';
      throw new ApiError(
        409,
        'remote_secret_missing',
        `No ${what} is saved for ${originOf(remote.root) || remote.root}: a password is only kept for the ` +
          `address it was entered for. Edit the site "${remote.name || remote.root}" and enter its ${what} again.`,
        { field: 'secret' },
      );
    }
    return { root: remote.root, namespace: remote.namespace, auth };
  };
  const jobOf = (request: BareRequest, message: string) => {
    const status = jobs.status(String(request.raw.id));
    if (!status) throw new ApiError(404, 'sync_job_not_found', message);
    return status;
  };
  return [
    adminRoute('/remotes', [
      adminEndpoint(['GET'], 'List the saved remotes', () => ({
        body: savedRemotes(store).map(presentRemote),
      })),
      adminEndpoint(['PUT'], 'Replace the saved remotes', async (request) => {
        const inputs = parse(z.array(remoteInputSchema), bodyOf(request));
        return { body: (await saveRemotes(store, secretBox, inputs)).map(presentRemote) };
      }),
    ]),
    adminRoute('/remotes/check', [
      adminEndpoint(['POST'], 'Check a site before it is saved', async (request) => {
        const input = parse(remoteCheckSchema, bodyOf(request));
        const saved = input.id ? savedRemotes(store).find((remote) => remote.id === input.id) : undefined;
        // A saved secret is lent only to the origin it was entered for, never to another address.
        const lent = saved && input.secret === undefined ? secretFor(saved, secretBox, input.root) : null;
        if (saved && input.secret === undefined && input.auth_type !== 'none' && saved.secret && !lent) {
          throw new ApiError(
            409,
            'remote_secret_missing',
            `The password saved for "${saved.name || saved.root}" was entered for ${boundOriginOf(saved)}: it is ` +
              `not sent to ${originOf(input.root) || input.root}. Enter the password for the new address.`,
            { field: 'secret' },
          );
        }
        const secret = input.secret ?? lent ?? undefined;
        const auth: RemoteAuth =
          input.auth_type === 'none' || secret === undefined
            ? null
            : input.auth_type === 'token'
              ? { token: secret }
              : { user: input.user, password: secret };
        return {
          body: await findAnyRemote(input.root, auth, { calendar: input.calendar, check: true }).catch(
            remoteFailure,
          ),
        };
      }),
    ]),
    adminRoute('/remotes/:id/plan', [
      adminEndpoint(['POST'], 'Preview a sync with a saved remote', async (request) => {
        const remote = { ...remoteOf(request), ...PREVIEW_LIMITS };
        const { policy, decisions, direction } = parse(syncRunSchema, bodyOf(request));
        const caller = request.caller!;
        const options = { store, caller, clock, policy, decisions, direction, dryRun: true, remote };
        return {
          body: await runAnySync(options).catch(remoteFailure),
        };
      }),
    ]),
    adminRoute('/remotes/:id/sync', [
      adminEndpoint(['POST'], 'Start a sync with a saved remote', (request) => {
        const remote = remoteOf(request);
        const { policy, decisions, direction, same_names } = parse(syncRunSchema, bodyOf(request));
        const caller = request.caller!;
        return startJob({
          store,
          caller,
          clock,
          policy,
          decisions,
          direction,
          remote,
          sameNames: same_names,
        });
      }),
    ]),
    adminRoute('/sync-jobs', [
      adminEndpoint(['POST'], 'Start a sync with a remote given in full', (request) => {
        const body = parse(adHocSyncSchema, bodyOf(request));
        return startJob({ store, clock, caller: request.caller!, ...adHocSyncOptions(body) });
      }),
    ]),
    adminRoute('/sync-jobs/:id', [
      adminEndpoint(['GET'], 'Progress of a sync job', (request) => ({
        body: jobOf(request, 'No such sync job (jobs are forgotten when the server restarts).'),
      })),
    ]),
    adminRoute('/sync-jobs/:id/cancel', [
      adminEndpoint(['POST'], 'Cancel a sync job', (request) => {
        const status = jobOf(request, 'No such sync job.');
        jobs.cancel(status.id);
        return { body: status };
      }),
    ]),
  ];
}
