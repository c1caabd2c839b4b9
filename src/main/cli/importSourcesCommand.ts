import { Command } from 'commander';
import type { CalendarStore } from '../store/store';
import { folderOwner } from '../core/users';
import { maskedAddress } from '../exchange/calendarFetch';
import {
  ImportSources,
  inRefreshAll,
  presentSource,
  type ImportSourceView,
  type StoredImportSource,
} from '../exchange/importSources';
import {
  addSource,
  ImportSourceExistsError,
  refreshSource,
  removeSource,
  type SourceRefreshAnswer,
  type SourceWork,
} from '../exchange/sourceRefresh';
import { importSourceInputSchema, type ImportSourceInput } from '../../shared/schemas/importSources';
import { OwnerServerError, type OwnerServer } from './ownerServer';
import type { SyncCommandDeps } from './syncCommand';

/** An address or an id the user got wrong, or refreshes that failed: one line each, exit 1. */
export class ImportSourcesUsageError extends Error {}

/** How long the CLI waits for the server's refresh: its fetch (30 s at most) and the import. */
const REFRESH_THROUGH_SERVER_MS = 120_000;

/**
 * What a refresh did, counted by the rows of the calendar (an event, or a changed date of a series), in a line;
 * and one more per event it moved to the trash or did not import.
 */
export function refreshLines(answer: SourceRefreshAnswer): string[] {
  if (answer.not_modified) return ['nothing changed at the address since the last refresh.'];
  const count = (action: string) => answer.rows.filter((row) => row.action === action).length;
  const trashed = answer.rows.filter((row) => row.action === 'trash');
  const skipped = answer.rows.filter((row) => row.action === 'skip');
  const parts = [
    `${count('create')} created`,
    `${count('update')} updated`,
    `${count('unchanged')} unchanged`,
    `${trashed.length} moved to the trash (no longer at the address)`,
  ];
  if (skipped.length) parts.push(`${skipped.length} not imported`);
  return [
    `${parts.join(', ')}.`,
    ...trashed.map((row) => `  trashed: "${row.title}"`),
    ...skipped.map((row) => `  not imported (line ${row.line}) "${row.title}": ${row.reason}`),
    ...(answer.import_id ? [`  To undo it: calendar-desk imports undo ${answer.import_id}`] : []),
  ];
}

const sourceLine = (source: ImportSourceView) =>
  [
    `${source.id}\t${source.name}\t${source.url}`,
    source.last_refresh ? `last refreshed ${source.last_refresh}` : 'never refreshed',
    ...(source.last_error ? [`last refresh failed: ${source.last_error}`] : []),
  ].join('\t');

/** The work of a refresh on a folder opened by this command, as its owner. */
const localWork = (store: CalendarStore): SourceWork => ({
  store,
  sources: new ImportSources(store.dataDir),
  caller: folderOwner(store),
  now: new Date(),
});

/** The refresh progress line, on standard error (the results go to standard output). */
const progress = (name: string, url: string, index: number, total: number) =>
  console.error(`Refreshing ${total > 1 ? `${index + 1}/${total} ` : ''}"${name}" (${url})…`);

/**
 * `calendar-desk import --url URL [--name N]`: follows the address (fetched and imported now) or, when it is
 * followed already, refreshes it.
 */
export async function importFromAddress(
  deps: SyncCommandDeps,
  options: { data?: string; url: string; name?: string; dayFirst?: boolean },
): Promise<void> {
  const parsed = importSourceInputSchema.safeParse({
    url: options.url,
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(options.dayFirst ? { day_first: true } : {}),
  });
  if (!parsed.success)
    throw new ImportSourcesUsageError(
      `--url: ${parsed.error.issues.map((issue) => issue.message).join('; ')}.`,
    );
  const input: ImportSourceInput = parsed.data;
  const shown = maskedAddress(input.url);
  console.error(`Reading the calendar at ${shown}…`);
  const { name, id, answer, added } = await deps.withStoreOrServer(
    deps.resolveDataFolder(options.data),
    async (store) => {
      const work = localWork(store);
      try {
        const { source, answer } = await addSource(work, input);
        return { name: source.name, id: source.id, answer, added: true };
      } catch (error) {
        if (!(error instanceof ImportSourceExistsError)) throw error;
        const answer = await refreshSource(work, error.existing);
        return { name: error.existing.name, id: error.existing.id, answer, added: false };
      }
    },
    async (server) => {
      try {
        const source = await server.call<ImportSourceView & { result: SourceRefreshAnswer }>(
          'POST',
          'import-sources',
          input,
          REFRESH_THROUGH_SERVER_MS,
        );
        return { name: source.name, id: source.id, answer: source.result, added: true };
      } catch (error) {
        const existingId = Number((error as OwnerServerError).answer?.data?.id);
        if (!(error instanceof OwnerServerError) || error.answer.code !== 'import_source_exists') throw error;
        const answer = await refreshThroughServer(server, String(existingId));
        const view = await server.call<ImportSourceView>('GET', `import-sources/${existingId}`);
        return { name: view.name, id: view.id, answer, added: false };
      }
    },
  );
  console.log(
    added
      ? `Now following "${name}" (${shown}), id ${id}. Refresh it with: calendar-desk import-sources refresh ${id}`
      : `"${name}" (${shown}) was followed already (id ${id}): refreshed it.`,
  );
  for (const line of refreshLines(answer)) console.log(line);
}

const refreshThroughServer = (server: OwnerServer, id: string) =>
  server.call<SourceRefreshAnswer>(
    'POST',
    `import-sources/${encodeURIComponent(id)}/refresh`,
    undefined,
    REFRESH_THROUGH_SERVER_MS,
  );

/** One refresh, its progress line before and its result after; a failure is printed and counted, not thrown. */
async function refreshEach(
  sources: Array<{ id: string; name: string; url: string }>,
  refresh: (id: string) => Promise<SourceRefreshAnswer>,
): Promise<void> {
  let failed = 0;
  for (const [index, source] of sources.entries()) {
    progress(source.name, source.url, index, sources.length);
    try {
      for (const line of refreshLines(await refresh(source.id))) console.log(`${source.name}: ${line}`);
    } catch (error) {
      failed++;
      console.error(`${source.name}: the refresh failed: ${(error as Error).message}`);
    }
  }
  if (failed > 0)
    throw new ImportSourcesUsageError(
      sources.length === 1
        ? 'The address could not be refreshed (see above); nothing of the calendar was changed by it.'
        : `${failed} of ${sources.length} addresses could not be refreshed (see above); the others were.`,
    );
}

/**
 * The saved source of `id`, or a usage error naming the ids there are; without an id, every source "refresh
 * all" takes (see `inRefreshAll`), saying which it leaves out and why.
 */
function pick<T extends { id: string }>(
  sources: T[],
  id: string | undefined,
  viewOf: (source: T) => ImportSourceView,
): T[] {
  if (id === undefined)
    return sources.filter((source) => {
      const view = viewOf(source);
      if (inRefreshAll(view)) return true;
      console.error(
        `${view.name}: not refreshed: its last refresh was refused because its calendar would create too many ` +
          `events. Refresh it by itself once it is smaller: calendar-desk import-sources refresh ${view.id}`,
      );
      return false;
    });
  const found = sources.find((source) => source.id === id);
  if (!found)
    throw new ImportSourcesUsageError(
      `There is no import address "${id}". List them with: calendar-desk import-sources`,
    );
  return [found];
}

/** `--data` given before or after a subcommand (`import-sources --data D refresh`, `… refresh --data D`). */
const dataOf = (command: Command) => command.optsWithGlobals<{ data?: string }>().data;

/** `calendar-desk import-sources` (list), `… refresh [ID]` (all when no id) and `… remove ID`. */
export function importSourcesCommand(deps: SyncCommandDeps): Command {
  const dataHelp = 'data folder (default: $CALENDAR_DESK_DATA, else the app-data folder)';
  const command = new Command('import-sources')
    .description('list the calendar addresses events are imported from (add one with: import --url URL)')
    .option('--data <dir>', dataHelp)
    .action(async (options: { data?: string }) => {
      const views = await deps.withStoreOrServer(
        deps.resolveDataFolder(options.data),
        async (store) => (await new ImportSources(store.dataDir).list()).map(presentSource),
        (server) => server.call<ImportSourceView[]>('GET', 'import-sources'),
      );
      if (views.length === 0)
        console.log('No import addresses yet. Add one with: calendar-desk import --url URL');
      for (const view of views) console.log(sourceLine(view));
    });
  command
    .command('refresh [id]')
    .description(
      'read the address(es) again: update what changed, move to the trash what left (without an id: every ' +
        'address but those last refused for the events they would create)',
    )
    .option('--data <dir>', dataHelp)
    .action(async (id: string | undefined, _options: unknown, self: Command) => {
      await deps.withStoreOrServer(
        deps.resolveDataFolder(dataOf(self)),
        async (store) => {
          const work = localWork(store);
          const sources = pick(await work.sources.list(), id, presentSource);
          const byId = new Map<string, StoredImportSource>(sources.map((source) => [source.id, source]));
          await refreshEach(
            sources.map((source) => ({ ...source, url: maskedAddress(source.url) })),
            (sourceId) => refreshSource(work, byId.get(sourceId)!),
          );
        },
        async (server) => {
          const views = await server.call<ImportSourceView[]>('GET', 'import-sources');
          const sources = pick(views, id, (view) => view);
          await refreshEach(sources, (sourceId) => refreshThroughServer(server, sourceId));
        },
      );
    });
  command
    .command('remove <id>')
    .description('stop following an address (the events it brought stay)')
    .option('--data <dir>', dataHelp)
    .action(async (id: string, _options: unknown, self: Command) => {
      const name = await deps.withStoreOrServer(
        deps.resolveDataFolder(dataOf(self)),
        async (store) => {
          const sources = new ImportSources(store.dataDir);
          const [source] = pick(await sources.list(), id, presentSource);
          await removeSource(store, sources, source!);
          return source!.name;
        },
        async (server) => {
          const [source] = pick(
            await server.call<ImportSourceView[]>('GET', 'import-sources'),
            id,
            (view) => view,
          );
          await server.call('DELETE', `import-sources/${encodeURIComponent(id)}`);
          return source!.name;
        },
      );
      console.log(`No longer following "${name}"; the events it brought stay.`);
    });
  return command;
}
