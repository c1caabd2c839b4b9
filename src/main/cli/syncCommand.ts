import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { NAMESPACE, TRIBE_NAMESPACE } from '../../shared/enums';
import type { CalendarStore } from '../store/store';
import { POLICIES, type ConflictPolicy } from '../sync/model';
import type { RemoteAuth } from '../sync/remoteClient';
import { adHocSyncOptions, exitStatusOf, type SyncReport } from '../sync/sync';
import { findAnyRemote, runAnySync } from '../caldavSync/anyRemote';
import { progressReporter, reportLines } from './syncOutput';
import type { OwnerServer } from './ownerServer';
import type { SyncJobStatus } from '../sync/jobs';
import { SyncStoppedError } from '../sync/executor';
import { folderOwner } from '../core/users';
import { adHocSyncSchema, type AdHocSyncRequest } from '../../shared/schemas/sync';

/** A sync option the user got wrong: one line, exit 1. */
export class SyncUsageError extends Error {
  readonly code = 'SYNC_USAGE';
}

export const PASSWORD_ENV = 'CALENDAR_DESK_REMOTE_PASSWORD';
export const TOKEN_ENV = 'CALENDAR_DESK_REMOTE_TOKEN';

/** Said wherever a secret can be given as a flag: the command line of a process is public on this computer. */
const VISIBLE_TO_OTHERS = 'visible to other users of this computer (ps)';

export interface SyncCliOptions {
  data?: string;
  remote: string;
  /** Absent: the namespace the remote serves (The Events Calendar's, else this app's), or CalDAV. */
  namespace?: string;
  /** A CalDAV server: the calendar to sync with, by name. */
  calendar?: string;
  token?: string;
  tokenFile?: string;
  user?: string;
  password?: string;
  passwordFile?: string;
  dryRun?: boolean;
  pushOnly?: boolean;
  pullOnly?: boolean;
  keepApart?: boolean;
  mergeSameNames?: boolean;
  policy: ConflictPolicy;
  json?: boolean;
}

/** The secret a file holds (trimmed), e.g. a token or an application password; `what` names it in errors. */
async function readSecretFile(file: string, what: string): Promise<string> {
  const secret = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    (error: NodeJS.ErrnoException) => {
      throw new SyncUsageError(`Cannot read the ${what} file ${file}: ${error.code ?? error.message}.`);
    },
  );
  if (!secret) throw new SyncUsageError(`The ${what} file ${file} is empty.`);
  return secret;
}

/**
 * Credentials from the flags, a file or the environment (in that order): a token (`--token`, `--token-file`,
 * else `$CALENDAR_DESK_REMOTE_TOKEN` when no `--user` is given), or a user and application password
 * (`--password`, `--password-file`, `$CALENDAR_DESK_REMOTE_PASSWORD`).
 */
export async function remoteAuthOf(options: SyncCliOptions, env = process.env): Promise<RemoteAuth> {
  const tokenGiven = options.token !== undefined || options.tokenFile !== undefined;
  if (tokenGiven && options.user) {
    throw new SyncUsageError('Give either a token (--token, --token-file) or --user, not both.');
  }
  if (options.token !== undefined && options.tokenFile !== undefined) {
    throw new SyncUsageError('Give either --token or --token-file, not both.');
  }
  if (options.token) return { token: options.token };
  if (options.tokenFile) return { token: await readSecretFile(options.tokenFile, 'token') };
  if (!options.user) {
    if (options.password || options.passwordFile) throw new SyncUsageError('--password needs --user LOGIN.');
    return env[TOKEN_ENV] ? { token: env[TOKEN_ENV] } : null;
  }
  let password = options.password;
  if (!password && options.passwordFile) password = await readSecretFile(options.passwordFile, 'password');
  password ??= env[PASSWORD_ENV];
  if (!password) {
    throw new SyncUsageError(
      `--user needs a password: --password-file FILE, $${PASSWORD_ENV} or --password.`,
    );
  }
  return { user: options.user, password };
}

/**
 * The flags as an ad-hoc sync request, judged by the schema `POST sync-jobs` judges it with: the same request
 * runs here or, when the data folder is in use, in its server. The address is judged before any secret file
 * is read.
 */
async function syncRequestOf(options: SyncCliOptions): Promise<AdHocSyncRequest> {
  const url = adHocSyncSchema.shape.remote.safeParse(options.remote);
  if (!url.success) {
    throw new SyncUsageError(
      `--remote: "${options.remote}" is not a web address (${url.error.issues[0]?.message}).`,
    );
  }
  if (options.pushOnly && options.pullOnly) {
    throw new SyncUsageError(
      'Give --push-only or --pull-only, not both (without either, sync goes both ways).',
    );
  }
  if (options.keepApart && options.mergeSameNames) {
    throw new SyncUsageError(
      'Give --keep-apart or --merge-same-names, not both: venues or organizers of one name are either renamed apart or merged.',
    );
  }
  const auth = await remoteAuthOf(options);
  // Without --namespace the site says which API it serves (or that it is a CalDAV server), as the app's
  // "add a site" form finds it.
  const api = options.namespace
    ? { root: options.remote, namespace: options.namespace }
    : await findAnyRemote(options.remote, auth, { calendar: options.calendar });
  const request = adHocSyncSchema.safeParse({
    remote: api.root,
    namespace: api.namespace,
    auth,
    policy: options.policy,
    direction: options.pushOnly ? 'push' : options.pullOnly ? 'pull' : 'both',
    dry_run: options.dryRun === true,
    ...(options.keepApart ? { same_names: 'keep-apart' } : {}),
    ...(options.mergeSameNames ? { same_names: 'merge' } : {}),
  });
  if (!request.success) {
    const issue = request.error.issues[0];
    throw new SyncUsageError(`--${String(issue?.path[0]).replace('_', '-')}: ${issue?.message}.`);
  }
  return request.data;
}

export interface SyncCommandDeps {
  resolveDataFolder(data?: string): string;
  withStoreOrServer<T>(
    dataDir: string,
    local: (store: CalendarStore) => T | Promise<T>,
    remote: (server: OwnerServer) => Promise<T>,
  ): Promise<T>;
}

/** How often the CLI asks the folder's server how its sync job is doing. */
const POLL_MS = 250;

/**
 * The sync run by the server that owns the data folder: started as a job (a long sync outlives one HTTP
 * request) and polled until done; with `--json` each poll's status is a progress line on stderr.
 */
async function syncThroughServer(
  server: OwnerServer,
  body: AdHocSyncRequest,
  json: boolean,
): Promise<SyncReport> {
  if (!json)
    console.error(`The data folder is in use by the server at ${server.apiRoot}: syncing through it.`);
  let status = await server.call<SyncJobStatus>('POST', 'sync-jobs', body);
  while (status.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    status = await server.call<SyncJobStatus>('GET', `sync-jobs/${status.id}`);
    if (json)
      process.stderr.write(
        `${JSON.stringify({ type: 'job', done: status.done, total: status.total, last: status.last })}\n`,
      );
  }
  if (status.state === 'failed' || !status.report) {
    throw new SyncStoppedError(
      status.error?.code ?? 'SYNC_FAILED',
      status.error?.message ?? 'The sync failed.',
      status.error?.stoppedPartWay === true,
    );
  }
  return status.report;
}

/** `calendar-desk sync`: sync the calendar with a remote, both ways unless told (see README "Export and sync"). */
export function syncCommand(deps: SyncCommandDeps): Command {
  return new Command('sync')
    .description(
      'sync the calendar with a remote: a WordPress site with The Events Calendar, another Calendar Desk, or ' +
        "a CalDAV calendar; local changes are sent, the remote's are taken",
    )
    .addOption(
      new Option('--data <dir>', 'data folder (default: $CALENDAR_DESK_DATA, else the app-data folder)'),
    )
    .requiredOption(
      '--remote <url>',
      'the remote site (https://example.org), its REST root (https://example.org/wp-json/), or a CalDAV ' +
        "server's or calendar's address (Nextcloud, Radicale, iCloud, Fastmail…)",
    )
    .option('--calendar <name>', 'a CalDAV server: the calendar to sync with, when the account has several')
    .option(
      '--namespace <ns>',
      `API namespace on the remote (default: the one it serves, ${TRIBE_NAMESPACE} on a WordPress site ` +
        `with The Events Calendar, ${NAMESPACE} on a Calendar Desk)`,
    )
    .option('--token-file <file>', `file holding the bearer token of the remote (or $${TOKEN_ENV})`)
    .option('--token <token>', `the bearer token itself: ${VISIBLE_TO_OTHERS}, prefer --token-file`)
    .option('--user <login>', 'remote user (with an application password)')
    .option('--password-file <file>', `file holding the application password (or $${PASSWORD_ENV})`)
    .option(
      '--password <password>',
      `the application password itself: ${VISIBLE_TO_OTHERS}, prefer --password-file`,
    )
    .option('--dry-run', 'print the plan and change nothing')
    .option('--push-only', "only send this calendar's changes; take nothing from the remote")
    .option('--pull-only', "only take the remote's changes; send nothing")
    .option(
      '--keep-apart',
      'venues or organizers of one name (which the site would make one): rename the others apart, here and there',
    )
    .option('--merge-same-names', 'venues or organizers of one name: merge each group into one here first')
    .addOption(
      new Option('--policy <policy>', 'what to do with records changed on both sides')
        .choices(POLICIES)
        .default('ask'),
    )
    .option('--json', 'print one JSON report on stdout, progress as JSON lines on stderr')
    .addHelpText(
      'after',
      [
        '',
        'Secrets given as flags (--token, --password) are visible to other users of this',
        'computer (ps) while the command runs. Give them in a file readable by you only',
        `(--token-file, --password-file) or in the environment ($${TOKEN_ENV},`,
        `$${PASSWORD_ENV}) instead.`,
      ].join('\n'),
    )
    .action(async (options: SyncCliOptions) => {
      const progress = progressReporter(options.json === true);
      let report: SyncReport;
      try {
        const request = await syncRequestOf(options);
        report = await deps.withStoreOrServer(
          deps.resolveDataFolder(options.data),
          (store) =>
            runAnySync({
              store,
              caller: folderOwner(store),
              ...adHocSyncOptions(request),
              onProgress: progress.onProgress,
            }),
          (server) => syncThroughServer(server, request, options.json === true),
        );
      } catch (error) {
        // Tools reading --json get the failure as JSON too (the one-line message still goes to stderr).
        if (options.json) {
          const { code, message } = error as Error & { code?: string };
          const status = error instanceof SyncStoppedError ? error.exitStatus : 1;
          console.log(
            JSON.stringify({ error: { code: code ?? 'SYNC_FAILED', message }, exit_status: status }),
          );
        }
        throw error;
      } finally {
        progress.stop();
      }
      const status = exitStatusOf(report, options.policy);
      if (options.json) console.log(JSON.stringify({ ...report, exit_status: status }));
      else for (const line of reportLines(report, options.policy)) console.log(line);
      process.exitCode = status;
    });
}
