import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { NAMESPACE, ROLES, type Role } from '../../shared/enums';
import { startEngine, EngineError } from '../engine';
import {
  CalendarStore,
  DataFileInvalidError,
  DataFileUnreadableError,
  StorageUnavailableError,
} from '../store/store';
import { FolderLockedError } from '../store/lock';
import { addUser, ADMIN_TOKEN_FILE, ensureAdminAccess, revokeUser, UserError } from '../core/users';
import { DataFolderError, findDataFolder, resolveDataFolder } from '../store/dataFolder';
import { parseToken } from '../core/credentials';
import { ownerServerOf, OwnerServerError, type OwnerServer, type RemoteUser } from './ownerServer';
import { syncCommand, SyncUsageError } from './syncCommand';
import { exchangeCommands, ExportTargetError } from './exchangeCommands';
import { importSourcesCommand, ImportSourcesUsageError } from './importSourcesCommand';
import { CalendarFetchError } from '../exchange/calendarFetch';
import { ImportSourcesFileError } from '../exchange/importSources';
import { importsCommand } from './importsCommand';
import { ImportUndoRefused } from '../exchange/importUndo';
import { feedsCommand, FeedsUsageError } from './feedsCommand';
import { FeedSecretError } from '../core/feeds/secret';
import { ImportError } from '../exchange/errors';
import { RemoteError } from '../sync/remoteClient';
import { SyncStoppedError } from '../sync/executor';
import { SyncStateError } from '../sync/linkState';
import { isValidTimezone } from '../core/dates/zones';
import { knownZone } from '../../shared/timeZones';
import { newCalendarCurrency } from '../core/machineLocale';
import type { SignInCodeAnswer } from '../../shared/schemas/session';

process.env.TZ = 'UTC';

/** The zone a new data folder starts with: the machine's (set by main), UTC until then. */
let newFolderZone = 'UTC';

/** An error the user can fix: printed as one line, exit code 1, no stack. */
class UsageError extends Error {}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError('a port is a whole number from 0 to 65535 (0 picks a free one).');
  }
  return port;
}

function parseRole(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`choose one of: ${ROLES.join(', ')}.`);
  }
  return value as Role;
}

const dataOption = () =>
  new Option('--data <dir>', 'data folder (default: $CALENDAR_DESK_DATA, else the app-data folder)');

/** The built renderer a packaged edition unpacked (set by main), else the one next to the built CLI. */
let packagedRendererDir: string | undefined;

/** The built renderer next to the built CLI (out/renderer), if it exists. */
function rendererDir(): string | undefined {
  if (packagedRendererDir) return packagedRendererDir;
  const here = dirname(fileURLToPath(import.meta.url));
  const candidate = resolve(here, '..', 'renderer');
  return existsSync(join(candidate, 'index.html')) ? candidate : undefined;
}

/**
 * Opens the store for a short command (a folder a running instance owns is refused with a clear message).
 * A fresh folder is initialised as `serve` would: the `admin` user and the admin token.
 */
async function withStore<T>(
  dataDir: string,
  work: (store: CalendarStore, adminToken: string) => T | Promise<T>,
): Promise<T> {
  const store = await CalendarStore.open({
    dataDir,
    initialSettings: {
      siteName: 'Calendar Desk',
      siteDescription: 'Events planned offline',
      timezone: newFolderZone,
      postsPerPage: 10,
      ...newCalendarCurrency(process.env, Intl.DateTimeFormat().resolvedOptions().locale),
    },
  });
  // What opening the folder repaired or upgraded (a backup restored, a migration): the user must know.
  for (const notice of store.notices) console.error(`calendar-desk: ${notice}`);
  try {
    return await work(store, await ensureAdminAccess(store, () => new Date()));
  } finally {
    await store.close();
  }
}

/** How long a command waits for a folder held by a process that is not a server (another command, a server starting). */
const BUSY_WAIT_MS = 3_000;

/**
 * Runs a command on the data folder: directly when the folder is free; through the admin API of the server
 * that owns it when one does (the same machine and user, so the folder's admin token is ours to use).
 */
async function withStoreOrServer<T>(
  dataDir: string,
  local: (store: CalendarStore) => T | Promise<T>,
  remote: (server: OwnerServer) => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    try {
      return await withStore(dataDir, local);
    } catch (error) {
      if (!(error instanceof FolderLockedError)) throw error;
      const server = await ownerServerOf(error);
      if (server) return remote(server);
      if (Date.now() >= deadline) throw error;
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    }
  }
}

const userLine = (login: string, role: string, credentials: number, createdUtc: string) =>
  `${login}\t${role}\t${credentials} credential(s)\tcreated ${createdUtc} UTC`;

/** `serve`: the API and the web UI in the foreground. */
function addServe(program: Command): void {
  program
    .command('serve')
    .description('run the API (and the web UI) in the foreground until Ctrl+C')
    .addOption(
      new Option(
        '--port <port>',
        'port on 127.0.0.1 (default: 8787 the first time, then the port this data folder last used; 0 = any free port)',
      ).argParser(parsePort),
    )
    .option('--host <host>', 'loopback address to bind', '127.0.0.1')
    .addOption(dataOption())
    .addOption(
      new Option('--timezone <zone>', 'site time zone of a new data folder (IANA name)').default(
        process.env.CALENDAR_DESK_TIMEZONE ?? newFolderZone,
      ),
    )
    .action(async (options: { port?: number; host: string; data?: string; timezone: string }) => {
      const { dataDir, source } = findDataFolder(options.data, {
        env: process.env,
        platform: process.platform,
      });
      const engine = await startEngine({
        dataDir,
        port: options.port,
        host: options.host,
        timezone: options.timezone,
        currency: newCalendarCurrency(process.env, Intl.DateTimeFormat().resolvedOptions().locale),
        rendererDir: rendererDir(),
      });
      for (const notice of engine.store.notices) console.error(`calendar-desk: ${notice}`);
      if (engine.addressNotice) console.error(`calendar-desk: ${engine.addressNotice}`);
      // (Why it is read-only is the notice above.)
      console.log(
        engine.store.readOnly
          ? 'Calendar Desk is running read-only: the calendar can be read, changes are refused.'
          : 'Calendar Desk is running.',
      );
      console.log(`  API root:    ${engine.apiRoot}${NAMESPACE}`);
      // A one-time code, never the permanent token: the link stays in the browser's history and in whatever
      // file this output is redirected to, and the code in it works once, for five minutes.
      console.log(`  Web UI:      ${engine.signInLink()}`);
      console.log('               (signs in once, within 5 minutes; a new link: calendar-desk signin-link)');
      console.log(
        `  Data folder: ${dataDir}${source === 'earlier' ? ' (where an earlier version kept it: used as it is)' : ''}`,
      );
      console.log('  Feeds:       calendar-desk feeds lists the addresses calendar apps subscribe to');
      console.log(
        `  Admin token: ${engine.adminTokenFile} (print it with: calendar-desk token --data "${dataDir}")`,
      );
      console.log('Press Ctrl+C to stop.');
      let stopping = false;
      const stop = () => {
        if (stopping) return;
        stopping = true;
        engine.close().then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(`calendar-desk: could not stop cleanly: ${(error as Error).message}`);
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
}

/** `token`: the admin API token. */
function addToken(program: Command): void {
  program
    .command('token')
    .description('print the admin API token (alone on the last line)')
    .addOption(dataOption())
    .action(async (options: { data?: string }) => {
      const dataDir = resolveDataFolder(options.data);
      const token = await withStore(dataDir, (_store, adminToken) => adminToken).catch(
        async (error: unknown) => {
          // A running server checked the token file when it started: it is the token to use.
          if (!(error instanceof FolderLockedError)) throw error;
          const saved = await readFile(join(dataDir, ADMIN_TOKEN_FILE), 'utf8').then(
            (text) => text.trim(),
            () => '',
          );
          if (!parseToken(saved)) throw error;
          return saved;
        },
      );
      console.log(token);
    });
}

/** `signin-link`: a one-time sign-in link to the running server. */
function addSignInLink(program: Command): void {
  program
    .command('signin-link')
    .description(
      'print a one-time sign-in link to the running server (valid once, for 5 minutes), alone on the last line',
    )
    .addOption(dataOption())
    .action(async (options: { data?: string }) => {
      const dataDir = resolveDataFolder(options.data);
      const { link } = await withStoreOrServer<SignInCodeAnswer>(
        dataDir,
        () => {
          throw new UsageError(
            `No server is running on ${dataDir}: start it with "calendar-desk serve", which prints a sign-in link.`,
          );
        },
        (server) => server.call<SignInCodeAnswer>('POST', 'signin-codes'),
      );
      console.log('Open this address in your browser to sign in (it works once, within 5 minutes):');
      console.log(link);
    });
}

/** `users add | list | revoke`: who may write through the API. */
function addUsers(program: Command): void {
  const users = program
    .command('users')
    .description(
      'manage who may write through the API (through the running server when one owns the data folder)',
    );
  users
    .command('add <login>')
    .description('create a user and print its new application password (alone on the last line)')
    .addOption(
      new Option('--role <role>', `one of ${ROLES.join(', ')}`).makeOptionMandatory().argParser(parseRole),
    )
    .addOption(dataOption())
    .action(async (login: string, options: { role: Role; data?: string }) => {
      const dataDir = resolveDataFolder(options.data);
      const { role, created, password, via } = await withStoreOrServer(
        dataDir,
        async (store) => {
          const { user, password } = await addUser(store, login, options.role, () => new Date());
          return { role: user.role, created: user.login, password, via: '' };
        },
        async (server) => {
          const user = await server.call<RemoteUser & { password: string }>('POST', 'users', {
            login,
            role: options.role,
          });
          return {
            role: user.role,
            created: user.login,
            password: user.password,
            via: ` through the server at ${server.apiRoot}`,
          };
        },
      );
      console.log(`Created ${role} "${created}"${via}. Its application password (shown only now):`);
      console.log(password);
    });
  users
    .command('list')
    .description('list users and their roles')
    .addOption(dataOption())
    .action(async (options: { data?: string }) => {
      const lines = await withStoreOrServer(
        resolveDataFolder(options.data),
        (store) =>
          [...store.users.values()].map((user) =>
            userLine(
              user.login,
              user.role,
              user.appPasswords.length +
                [...store.tokens.values()].filter((token) => token.userId === user.id).length,
              user.createdUtc,
            ),
          ),
        async (server) =>
          (await server.call<RemoteUser[]>('GET', 'users')).map((user) =>
            userLine(user.login, user.role, user.credentials, user.created_utc),
          ),
      );
      for (const line of lines) console.log(line);
    });
  users
    .command('revoke <login>')
    .description("revoke all of a user's application passwords and tokens")
    .addOption(dataOption())
    .action(async (login: string, options: { data?: string }) => {
      const { revoked, via } = await withStoreOrServer(
        resolveDataFolder(options.data),
        async (store) => ({ revoked: (await revokeUser(store, login)).login, via: '' }),
        async (server) => {
          const user = await server.call<RemoteUser>('POST', `users/${encodeURIComponent(login)}/revoke`);
          return { revoked: user.login, via: ` through the server at ${server.apiRoot}` };
        },
      );
      console.log(`Revoked every credential of "${revoked}"${via}.`);
    });
}

export function buildProgram(): Command {
  const program = new Command('calendar-desk')
    .description(`Calendar Desk: an offline event calendar with a local ${NAMESPACE} REST API`)
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });

  // Added with program.command(), so they inherit its output and help settings.
  for (const add of [addServe, addToken, addSignInLink, addUsers]) add(program);
  program.addCommand(syncCommand({ resolveDataFolder, withStoreOrServer }));
  program.addCommand(feedsCommand({ resolveDataFolder, withStoreOrServer }));
  for (const command of exchangeCommands({ resolveDataFolder, withStoreOrServer }))
    program.addCommand(command);
  program.addCommand(importsCommand({ resolveDataFolder, withStoreOrServer }));
  program.addCommand(importSourcesCommand({ resolveDataFolder, withStoreOrServer }));
  return program;
}

/** Errors the user can act on: their message is the whole story, no stack needed. */
function isUserFacing(error: unknown): boolean {
  if (
    error instanceof UsageError ||
    error instanceof EngineError ||
    error instanceof FolderLockedError ||
    error instanceof OwnerServerError ||
    error instanceof UserError ||
    error instanceof SyncUsageError ||
    error instanceof FeedsUsageError ||
    error instanceof ExportTargetError ||
    error instanceof FeedSecretError ||
    error instanceof ImportError ||
    error instanceof ImportUndoRefused ||
    error instanceof ImportSourcesUsageError ||
    error instanceof ImportSourcesFileError ||
    error instanceof CalendarFetchError ||
    error instanceof RemoteError ||
    error instanceof SyncStoppedError ||
    error instanceof SyncStateError ||
    error instanceof DataFolderError ||
    error instanceof DataFileInvalidError ||
    error instanceof DataFileUnreadableError ||
    error instanceof StorageUnavailableError
  ) {
    return true;
  }
  // Operating-system errors (permissions, full disk, a file where a folder should be) name the path.
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) && typeof syscall === 'string';
}

/** Runs the CLI; errors the user can act on are one clear line on stderr and a non-zero exit. */
/** `machineZone`: what Intl said this machine's zone is, before the engine pinned TZ (bin/calendar-desk.js). */
export async function main(
  argv: string[],
  context: { machineZone?: string; rendererDir?: string } = {},
): Promise<void> {
  newFolderZone = knownZone(context.machineZone, isValidTimezone);
  packagedRendererDir = context.rendererDir;
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    const known = isUserFacing(error);
    console.error(
      known
        ? `calendar-desk: ${(error as Error).message}`
        : `calendar-desk: unexpected error (please report it): ${(error as Error)?.stack ?? String(error)}`,
    );
    if (['EACCES', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '')) {
      console.error(
        'calendar-desk: the data folder is not readable/writable by you; pick another with --data.',
      );
    }
    // A sync stopped part-way exits 3 (run it again), as the README promises; other known errors 1.
    process.exitCode = !known ? 70 : error instanceof SyncStoppedError ? error.exitStatus : 1;
  }
}

const invokedDirectly = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) void main(process.argv);
