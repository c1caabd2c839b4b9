import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Command, Option } from 'commander';
import { CalendarStore } from '../store/store';
import { ReadOnlyPersistence } from '../store/persistence';
import type { StoreOp } from '../store/store';
import { FolderLockedError } from '../store/lock';
import { exportText } from '../exchange/exportText';
import { CSV_KINDS, type CsvKind } from '../exchange/csv';
import { importFile, type ImportResult } from '../exchange/importFile';
import type { ImportMatch } from '../exchange/csvMatch';
import { previewReport } from './importReport';
import type { SyncCommandDeps } from './syncCommand';
import { OwnerServerError } from './ownerServer';
import { folderOwner } from '../core/users';
import { importFromAddress, ImportSourcesUsageError } from './importSourcesCommand';

/** The body limit of the folder's server (1 MiB, see server/middleware/body.ts). */
const IMPORT_THROUGH_SERVER_MAX = 1024 * 1024;

const INITIAL_SETTINGS = {
  siteName: 'Calendar Desk',
  siteDescription: 'Events planned offline',
  timezone: 'UTC',
  postsPerPage: 10,
};

/**
 * Reads the calendar for an export: the folder directly, or (when a server owns it) its durable state read
 * without the lock — an export changes nothing, so it need not wait for the owner.
 */
async function withReadableStore<T>(dataDir: string, work: (store: CalendarStore) => T): Promise<T> {
  let store: CalendarStore;
  try {
    store = await CalendarStore.open({ dataDir, initialSettings: INITIAL_SETTINGS });
  } catch (error) {
    if (!(error instanceof FolderLockedError)) throw error;
    store = await CalendarStore.open({
      dataDir,
      initialSettings: INITIAL_SETTINGS,
      lock: false,
      persistence: new ReadOnlyPersistence<StoreOp>(dataDir),
    });
  }
  try {
    return work(store);
  } finally {
    await store.close();
  }
}

/** `--out` names a place an export must not be written to (a link to a file): the message says what to do. */
export class ExportTargetError extends Error {}

/**
 * Writes an export readable by its owner only (mode 0600): it may hold drafts, private events and event
 * passwords. A regular file (or a new one) is replaced by a new file, written beside it under a name no one
 * can have prepared, and renamed over it: whoever opened an older export while it was readable keeps reading
 * that one, not what is written now (a change of mode does not close their handle). A symbolic link is not
 * followed to a file, or to nothing: whoever planted it would choose what the export replaces or creates
 * (`--out ~/shared/export.json` made a link to `~/.bashrc`). Only a link to a terminal or a pipe
 * (`--out /dev/stdout`) is written through.
 */
async function writePrivateFile(file: string, text: string): Promise<void> {
  const existing = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (existing?.isSymbolicLink()) {
    const target = await stat(file).catch(() => null);
    if (!target || target.isFile() || target.isDirectory()) {
      const where = target ? `to ${await realpath(file).catch(() => 'another file')}` : 'to nothing';
      throw new ExportTargetError(
        `${file} is a symbolic link ${where}: the export is not written through it (it would replace or ` +
          'create a file elsewhere). Remove the link or choose another --out file; without --out the export ' +
          'goes to standard output.',
      );
    }
    return writeInto(file, text, true);
  }
  if (existing && !existing.isFile()) return writeInto(file, text, false);
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(8).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    try {
      await handle.writeFile(text, 'utf8');
    } finally {
      await handle.close();
    }
    // rename replaces whatever is at `file` now (a link put there meanwhile too) and never follows it.
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * `--out /dev/stdout`, a pipe, a terminal: written into as it is. Opened without creating or truncating
 * anything (and, unless `followLink`, without following a link put there meanwhile), then checked: what it
 * turns out to be must still be no regular file.
 */
async function writeInto(file: string, text: string, followLink: boolean): Promise<void> {
  const noFollow = followLink ? 0 : (constants.O_NOFOLLOW ?? 0);
  const handle = await open(file, constants.O_WRONLY | noFollow);
  try {
    const info = await handle.stat();
    if (info.isFile() || info.isDirectory())
      throw new ExportTargetError(
        `${file} changed while the export was being written: choose another --out file.`,
      );
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
}

/** What a CSV re-import matched: the rows that were already here, updated (or left as they were). */
export function matchedReport(matched: ImportMatch[]): string {
  const updated = matched.filter((match) => match.changed).length;
  const shown = matched
    .slice(0, 20)
    .map(
      (match) =>
        `  line ${match.line}: ${match.kind} #${match.id} "${match.name}" ${match.changed ? 'updated' : 'unchanged'}`,
    );
  const more = matched.length > 20 ? [`  … and ${matched.length - 20} more`] : [];
  return [
    `${matched.length} row(s) matched what is already here (events by title and start, venues and organizers by ` +
      `name): ${updated} updated, ${matched.length - updated} unchanged, none added twice.`,
    ...shown,
    ...more,
  ].join('\n');
}

interface ImportCliOptions {
  data?: string;
  dayFirst?: boolean;
  dryRun?: boolean;
  url?: string;
  name?: string;
}

/** `calendar-desk export` and `calendar-desk import`. */
export function exchangeCommands(deps: SyncCommandDeps): Command[] {
  const exportCommand = new Command('export')
    .description(
      'write the calendar as a JSON dump (restorable), iCalendar (.ics) or CSV (the original plugin importer columns)',
    )
    .addHelpText(
      'after',
      '\nCSV for a WordPress site (Events → Import → CSV): export --kind venues, --kind organizers and --kind events,\n' +
        'and import the venues and the organizers first: the importer links an event only to venues and organizers\n' +
        'that are already on the site (by their exact name). Every column is pre-selected on its import screen.',
    )
    .addOption(
      new Option('--format <format>', 'json, ics or csv')
        .choices(['json', 'ics', 'csv'])
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--kind <kind>', 'with --format csv: which records').choices(CSV_KINDS).default('events'),
    )
    .option('--out <file>', 'write to this file, readable by you only (default: standard output)')
    .addOption(
      new Option('--data <dir>', 'data folder (default: $CALENDAR_DESK_DATA, else the app-data folder)'),
    )
    .action(
      async (options: { format: 'json' | 'ics' | 'csv'; kind: CsvKind; out?: string; data?: string }) => {
        const text = await withReadableStore(deps.resolveDataFolder(options.data), (store) =>
          exportText(store, options.format, options.kind, new Date()),
        );
        if (options.out) {
          await writePrivateFile(options.out, text);
          console.error(`Exported to ${options.out}.`);
        } else process.stdout.write(text);
      },
    );

  const importCommand = new Command('import')
    .description(
      'import a JSON dump (into an empty data folder), an .ics or a CSV file: all of it or nothing; ' +
        'or follow a calendar address (--url)',
    )
    .argument('[file]', 'file to import (.json, .ics or .csv)')
    .option(
      '--url <address>',
      'follow this calendar address (an .ics feed, a Google Calendar secret address): import it now, and ' +
        'again with `import-sources refresh` (already followed: refreshed)',
    )
    .option('--name <name>', "with --url: the name to list it by (default: the calendar's own)")
    .option(
      '--day-first',
      'CSV: read 05/06/2026 as 5 June (day/month/year); without it, as 6 May (month first, as WordPress does)',
    )
    .option('--dry-run', 'write nothing: say what the import would create, update or skip, line by line')
    .addOption(
      new Option('--data <dir>', 'data folder (default: $CALENDAR_DESK_DATA, else the app-data folder)'),
    )
    .action(async (file: string | undefined, options: ImportCliOptions) => {
      if ((file === undefined) === (options.url === undefined))
        throw new ImportSourcesUsageError(
          'Give either a file to import or --url with a calendar address, not both (see: calendar-desk import --help).',
        );
      if (file === undefined) {
        if (options.dryRun) throw new ImportSourcesUsageError('--dry-run goes with a file, not --url.');
        return importFromAddress(deps, { ...options, url: options.url! });
      }
      if (options.name !== undefined) throw new ImportSourcesUsageError('--name goes with --url.');
      const text = await readFile(file, 'utf8');
      const dayFirst = options.dayFirst === true;
      const dryRun = options.dryRun === true;
      const result = await deps.withStoreOrServer(
        deps.resolveDataFolder(options.data),
        (store) => importFile(store, file, text, new Date(), folderOwner(store), { dayFirst, dryRun }),
        (server) => {
          // The server takes request bodies up to 1 MiB: a bigger file is imported with the folder free.
          const body = {
            file_name: basename(file),
            content: text,
            ...(dayFirst ? { day_first: true } : {}),
            ...(dryRun ? { dry_run: true } : {}),
          };
          if (Buffer.byteLength(JSON.stringify(body)) > IMPORT_THROUGH_SERVER_MAX) {
            throw new OwnerServerError(
              `The data folder is in use by the server at ${server.apiRoot}, and ${file} is too big to send to it ` +
                '(over 1 MiB). Stop that server (Ctrl+C where it runs, or quit the app) and run the import again.',
            );
          }
          return server.call<ImportResult>('POST', 'import', body);
        },
      );
      if (dryRun) return console.log(previewReport(file, result.rows));
      console.log(
        result.format === 'json'
          ? `Restored ${result.records} record(s) from ${file}.`
          : `Imported from ${file}: ${result.events} event(s), ${result.venues} venue(s), ${result.organizers} organizer(s)` +
              (result.matchedByUid
                ? ` (${result.matchedByUid} event(s) already here matched by UID, ${result.unchangedByUid} of them unchanged).`
                : '.'),
      );
      if (result.matched?.length) console.log(matchedReport(result.matched));
      if (result.import_id)
        console.log(`To undo this import: calendar-desk imports undo ${result.import_id}`);
    });
  return [exportCommand, importCommand];
}
