import type Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import type { CalendarStore } from '../../store/store';
import { ApiError } from '../errors';
import { POLICIES } from '../../sync/model';
import { decisionsSchema, remoteCheckSchema, syncRunSchema } from '../../../shared/schemas/sync';
import { runSync } from '../../sync/sync';
import { SyncJobs } from '../../sync/jobs';
import { RemoteError, type RemoteAuth } from '../../sync/remoteClient';
import { checkRemote, fieldOf } from '../../sync/remoteCheck';
import type { SecretBox } from '../../sync/secretBox';
import { authOf, presentRemote, remoteInputSchema, saveRemotes, savedRemotes } from '../../sync/remotes';
import { importFile } from '../../sync/exchange/importFile';
import { ImportError } from '../../sync/exchange/errors';

const decisions = decisionsSchema.default({});
const authSchema = z
  .union([
    z.object({ token: z.string().min(1) }),
    z.object({ user: z.string().min(1), password: z.string().min(1) }),
  ])
  .nullable();
/** `POST sync-jobs`: a sync with options given in full (what `calendar-desk sync` sends to the folder's server). */
const adHocSyncSchema = z.object({
  remote: z.string().url(),
  namespace: z.string().min(1).default('cal/events/v1'),
  auth: authSchema,
  policy: z.enum(POLICIES).default('ask'),
  dry_run: z.boolean().default(false),
  decisions,
});
const importSchema = z.object({ file_name: z.string().min(1), content: z.string() });

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    const params = Object.fromEntries(
      parsed.error.issues.map((issue) => [issue.path.join('.') || 'body', issue.message]),
    );
    throw new ApiError(400, 'rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, {
      params,
    });
  }
  return parsed.data;
}

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
    });
  }
  throw error;
}
/** A preview answers within this per request (and retries once): the user is waiting on the screen. */
const PREVIEW_LIMITS = { attempts: 2, timeoutMs: 15_000 };

/**
 * The sync part of the admin namespace (administrators only, see admin.ts): saved remotes (secrets sealed by
 * the SecretBox, never returned), dry runs, background sync jobs with progress, and imports.
 */
export function syncAdminRoutes(
  router: Router,
  { store, clock, secretBox }: { store: CalendarStore; clock: () => Date; secretBox: SecretBox },
): void {
  const jobs = new SyncJobs();
  const remoteById = (id: string) => {
    const remote = savedRemotes(store).find((candidate) => candidate.id === id);
    if (!remote) throw new ApiError(404, 'remote_not_found', `There is no saved remote "${id}".`);
    return remote;
  };
  /** The unsealed secret of a saved remote (token or password), if it has one. */
  const authSecretOf = (remote: ReturnType<typeof savedRemotes>[number]) => {
    const auth = authOf(remote, secretBox);
    return auth === null ? undefined : 'token' in auth ? auth.token : auth.password;
  };
  const startJob = (ctx: Koa.Context, options: Parameters<SyncJobs['start']>[0]) => {
    if (jobs.busy)
      throw new ApiError(409, 'sync_running', 'A sync is already running: wait for it to finish.');
    const status = jobs.start(options);
    ctx.status = 202;
    ctx.set('Location', `sync-jobs/${status.id}`);
    ctx.body = status;
  };

  router.get('/remotes', async (ctx) => {
    ctx.body = await store.readSettled(() => savedRemotes(store).map(presentRemote));
  });
  router.put('/remotes', async (ctx) => {
    const inputs = parse(z.array(remoteInputSchema), ctx.request.body);
    ctx.body = (await saveRemotes(store, secretBox, inputs)).map(presentRemote);
  });
  router.post('/remotes/check', async (ctx) => {
    const input = parse(remoteCheckSchema, ctx.request.body);
    const saved = input.id ? savedRemotes(store).find((remote) => remote.id === input.id) : undefined;
    const secret = input.secret ?? (saved ? authSecretOf(saved) : undefined);
    const auth: RemoteAuth =
      input.auth_type === 'none' || secret === undefined
        ? null
        : input.auth_type === 'token'
          ? { token: secret }
          : { user: input.user, password: secret };
    ctx.body = await checkRemote(input.root, auth).catch(remoteFailure);
  });
  router.post('/remotes/:id/plan', async (ctx) => {
    const remote = remoteById(ctx.params.id!);
    const { policy, decisions } = parse(syncRunSchema, ctx.request.body);
    ctx.body = await runSync({
      store,
      clock,
      policy,
      decisions,
      dryRun: true,
      remote: {
        root: remote.root,
        namespace: remote.namespace,
        auth: authOf(remote, secretBox),
        ...PREVIEW_LIMITS,
      },
    }).catch(remoteFailure);
  });
  router.post('/remotes/:id/sync', (ctx) => {
    const remote = remoteById(ctx.params.id!);
    const { policy, decisions } = parse(syncRunSchema, ctx.request.body);
    startJob(ctx, {
      store,
      clock,
      policy,
      decisions,
      remote: { root: remote.root, namespace: remote.namespace, auth: authOf(remote, secretBox) },
    });
  });
  router.post('/sync-jobs', (ctx) => {
    const body = parse(adHocSyncSchema, ctx.request.body);
    startJob(ctx, {
      store,
      clock,
      policy: body.policy,
      decisions: body.decisions,
      dryRun: body.dry_run,
      remote: { root: body.remote, namespace: body.namespace, auth: body.auth },
    });
  });
  router.get('/sync-jobs/:id', (ctx) => {
    const status = jobs.status(ctx.params.id!);
    if (!status)
      throw new ApiError(
        404,
        'sync_job_not_found',
        'No such sync job (jobs are forgotten when the server restarts).',
      );
    ctx.body = status;
  });
  router.post('/sync-jobs/:id/cancel', (ctx) => {
    const status = jobs.status(ctx.params.id!);
    if (!status) throw new ApiError(404, 'sync_job_not_found', 'No such sync job.');
    jobs.cancel(status.id);
    ctx.body = status;
  });
  router.post('/import', async (ctx) => {
    const body = parse(importSchema, ctx.request.body);
    try {
      ctx.body = await importFile(store, body.file_name, body.content, clock());
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      throw new ApiError(400, 'import_invalid', error.message, { problems: error.problems });
    }
  });
}
