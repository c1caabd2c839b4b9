import { Command, Option } from 'commander';
import type { ImportHistoryEntry, ImportUndoAnswer } from '../../shared/schemas/imports';
import { importHistoryOf } from '../exchange/importHistory';
import { undoImport } from '../exchange/importUndo';
import { historyReport, undoReport } from './importReport';
import type { SyncCommandDeps } from './syncCommand';

const dataOption = () =>
  new Option('--data <dir>', 'data folder (default: $CALENDAR_DESK_DATA, else the app-data folder)');

/** `calendar-desk imports` (the last imports) and `calendar-desk imports undo ID`. */
export function importsCommand(deps: SyncCommandDeps): Command {
  const command = new Command('imports')
    .description('list the last imports (newest first); undo one with: imports undo ID')
    .addOption(dataOption())
    .action(async (options: { data?: string }) => {
      const entries = await deps.withStoreOrServer(
        deps.resolveDataFolder(options.data),
        (store) => importHistoryOf(store).list(),
        (server) => server.call<ImportHistoryEntry[]>('GET', 'imports'),
      );
      console.log(historyReport(entries));
    });
  command
    .command('undo')
    .description(
      'undo an import: what it changed goes back as it was, what it created goes to the trash; ' +
        'records changed since are left as they are',
    )
    .argument('<id>', 'the import, as `calendar-desk imports` lists it')
    .addOption(dataOption())
    .action(async (id: string, options: { data?: string }) => {
      // `imports --data DIR undo ID` and `imports undo ID --data DIR` alike: commander may give it to either.
      const data = options.data ?? command.opts<{ data?: string }>().data;
      const answer = await deps.withStoreOrServer(
        deps.resolveDataFolder(data),
        (store) => undoImport(store, id, new Date()),
        (server) => server.call<ImportUndoAnswer>('POST', `imports/${encodeURIComponent(id)}/undo`),
      );
      console.log(undoReport(id, answer));
    });
  return command;
}
