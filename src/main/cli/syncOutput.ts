import { createRequire } from 'node:module';
import type cliProgressModule from 'cli-progress';
import type { SyncProgress } from '../sync/executor';
import type { SyncReport } from '../sync/sync';
import type { Conflict, ConflictPolicy, Operation } from '../sync/model';

const show = (value: unknown) =>
  typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value ?? null);

function operationLine(operation: Operation): string {
  const verb = operation.type === 'adopt' && operation.thenUpdate ? 'adopt+update' : operation.type;
  return `  ${verb.padEnd(12)} ${operation.kind} ${operation.localId} "${operation.title}"`;
}

const REASONS: Record<Conflict['reason'], string> = {
  'both-changed': 'changed here and on the remote',
  'local-deleted-remote-changed': 'deleted here, changed on the remote',
  'remote-deleted': 'deleted on the remote',
  'both-exist': 'exists on both sides with different content',
};

/** What the conflicts line says, given the policy the sync ran with. */
const CONFLICTS_HEADER: Record<ConflictPolicy, string> = {
  ask: 'Conflicts (left untouched; decide with --policy local-wins, remote-wins or skip):',
  skip: 'Conflicts skipped as --policy skip asks (left untouched; to settle them, run with --policy local-wins or remote-wins):',
  'local-wins':
    'Conflicts (changed on the site while this sync ran, left untouched; run the same command again to apply local-wins to them):',
  'remote-wins':
    'Conflicts (changed on the site while this sync ran, left untouched; run the same command again to apply remote-wins to them):',
};

/** The report as people read it. */
export function reportLines(report: SyncReport, policy: ConflictPolicy = 'ask'): string[] {
  const lines = [`Remote: ${report.remote} (${report.namespace})`];
  if (report.dryRun) {
    lines.push(`Dry run: nothing was changed. ${report.operations.length} operation(s) planned:`);
    for (const operation of report.operations) {
      lines.push(operationLine(operation));
      if (operation.type === 'merge') {
        if (operation.toLocal.length > 0)
          lines.push(`      taken from the remote: ${operation.toLocal.join(', ')}`);
        if (operation.toRemote.length > 0)
          lines.push(`      sent to the remote: ${operation.toRemote.join(', ')}`);
      }
      if (operation.type !== 'update') continue;
      for (const diff of operation.diff ?? []) {
        lines.push(`      ${diff.field}: here ${show(diff.local)} | remote ${show(diff.remote)}`);
      }
    }
  }
  const sameNames = report.sameNames ?? [];
  if (sameNames.length > 0) {
    lines.push(
      report.dryRun
        ? 'Same names: the site would make each group one record. Sync with --keep-apart (renamed as shown, here and there) or --merge-same-names (merged here first):'
        : 'Same names, settled as asked:',
    );
    for (const group of sameNames) {
      lines.push(`  ${group.localIds.length} ${group.kind}s "${group.name}":`);
      for (const [index, id] of group.localIds.entries())
        lines.push(`      ${group.kind} ${id}: kept apart as "${group.apartNames[index]}"`);
    }
  }
  if (report.conflicts.length > 0) {
    lines.push(CONFLICTS_HEADER[policy]);
    for (const conflict of report.conflicts) {
      lines.push(`  ${conflict.kind} ${conflict.localId} "${conflict.title}": ${REASONS[conflict.reason]}`);
      for (const diff of conflict.diff) {
        // With the value both sides had at the last sync, when the record was synced before.
        const base = 'base' in diff ? ` | last synced ${show(diff.base)}` : '';
        lines.push(`      ${diff.field}: here ${show(diff.local)} | remote ${show(diff.remote)}${base}`);
      }
    }
  }
  if (report.failures.length > 0) {
    lines.push('Failed (the rest went on; each says what to do, then run the same command again):');
    for (const failure of report.failures) {
      // A record of the remote not yet here (one it sent unreadable) has no local id: 0.
      const id = failure.localId === 0 ? '' : ` ${failure.localId}`;
      lines.push(`  ${failure.kind}${id} "${failure.title}": ${failure.message}`);
    }
  }
  if (report.interrupted)
    lines.push('Interrupted: what was done is saved; run the same command to continue.');
  const { created, updated, deleted, adopted, pulled, uploaded, conflicts, failed, imported, trashed } =
    report.summary;
  lines.push(
    `${report.dryRun ? 'Would take' : 'Taken'} from the remote: ${imported} new, ${pulled} changed, ` +
      `${trashed} moved to the trash (deleted there)`,
  );
  lines.push(
    `${report.dryRun ? 'Would do' : 'Summary'}: created ${created}, updated ${updated}, deleted ${deleted}, ` +
      `adopted ${adopted}, pulled ${pulled}, pictures uploaded ${uploaded}, conflicts ${conflicts}, failed ${failed}`,
  );
  return lines;
}

/**
 * Where progress goes: a bar on a terminal, one JSON object per line on stderr with `--json` (for tools),
 * nothing otherwise (a pipe or a log file gets only the final report).
 */
export function progressReporter(json: boolean): { onProgress: (event: SyncProgress) => void; stop(): void } {
  if (json) {
    return {
      onProgress: (event) => process.stderr.write(`${JSON.stringify(event)}\n`),
      stop: () => undefined,
    };
  }
  if (!process.stdout.isTTY || !process.stderr.isTTY)
    return { onProgress: () => undefined, stop: () => undefined };
  // Loaded here, not at start: only a sync on a terminal draws a bar, and `serve` should not wait for it.
  const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: 'Syncing [{bar}] {value}/{total} {status}',
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    onProgress: (event) => {
      if (event.type === 'start') {
        bar.start(event.total, 0, { status: '' });
        started = true;
      } else if (event.type === 'operation') {
        bar.update(event.index, {
          status: `${event.operation.type} ${event.operation.kind} "${event.operation.title}"`,
        });
      } else if (event.type === 'upload' && started) {
        bar.update({ status: `uploaded picture ${event.fileName}` });
      } else if (event.type === 'retry' && started) {
        bar.update({ status: `retrying (${event.reason})` });
      }
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
