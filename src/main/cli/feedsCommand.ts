import { Command } from 'commander';
import { FeedSecret } from '../core/feeds/secret';
import { feedsOverview, type FeedsOverview } from '../core/feeds/addresses';
import { DEFAULT_PORT, readLastPort } from '../lastPort';
import type { SyncCommandDeps } from './syncCommand';

interface FeedsOptions {
  data?: string;
  json?: boolean;
  regenerate?: boolean;
  revoke?: boolean;
}

/** Printed under the addresses: what a volunteer needs to know to use them. */
const ANSWERS_WHILE_RUNNING =
  'These addresses answer on this computer while Calendar Desk runs (the desktop app or `calendar-desk serve`).';

/** The overview as lines for a person: each feed's webcal:// address (what calendar apps open) and http://. */
export function feedLines(overview: FeedsOverview): string[] {
  if (!overview.enabled || !overview.calendar)
    return [
      'Calendar feeds are off (their addresses were revoked).',
      'Make new addresses with: calendar-desk feeds --regenerate',
      // Why they are off when the user did not revoke them (a damaged feeds.json set aside at start).
      ...(overview.address_notice ? [overview.address_notice] : []),
    ];
  const lines = [
    `Calendar feeds: published events, the past ${overview.past_months} month(s) and everything ahead.`,
    '',
    'Whole calendar',
    `  ${overview.calendar.webcal}`,
    `  ${overview.calendar.http}`,
  ];
  for (const [title, feeds] of [
    ['Category', overview.categories],
    ['Venue', overview.venues],
  ] as const)
    for (const feed of feeds) lines.push('', `${title}: ${feed.name}`, `  ${feed.webcal}`, `  ${feed.http}`);
  lines.push('', ANSWERS_WHILE_RUNNING);
  if (overview.address_notice) lines.push(overview.address_notice);
  return lines;
}

/**
 * `calendar-desk feeds`: the addresses of the subscribable feeds (`--json` for scripts); `--regenerate` gives
 * new ones (the old stop answering), `--revoke` turns them off. Through the running server when one owns the
 * folder (its address is the one that answers), else on the folder with the port it will start on.
 */
export function feedsCommand(deps: SyncCommandDeps): Command {
  return new Command('feeds')
    .description('list the addresses of the calendar feeds that calendar apps subscribe to')
    .option('--data <dir>', 'data folder (default: $CALENDAR_DESK_DATA, else the app-data folder)')
    .option('--json', 'print the addresses as JSON')
    .option('--regenerate', 'give the feeds new addresses (the old ones stop answering)')
    .option('--revoke', 'turn the feeds off: every address answers "not found" until --regenerate')
    .action(async (options: FeedsOptions) => {
      if (options.regenerate && options.revoke)
        throw new FeedsUsageError('Choose either --regenerate or --revoke, not both.');
      const dataDir = deps.resolveDataFolder(options.data);
      const overview = await deps.withStoreOrServer<FeedsOverview>(
        dataDir,
        async (store) => {
          const secret = await FeedSecret.open(dataDir);
          if (options.regenerate) await secret.regenerate();
          if (options.revoke) await secret.revoke();
          const port = (await readLastPort(dataDir)) ?? DEFAULT_PORT;
          return feedsOverview(store, secret, `http://127.0.0.1:${port}`, secret.notice);
        },
        async (server) => {
          const action = options.regenerate ? 'feeds/regenerate' : options.revoke ? 'feeds/revoke' : null;
          return action ? server.call('POST', action) : server.call('GET', 'feeds');
        },
      );
      if (options.json) console.log(JSON.stringify(overview, null, 2));
      else {
        if (options.regenerate) console.log('New feed addresses made: the old ones no longer answer.\n');
        if (options.revoke) console.log('The feed addresses were revoked.\n');
        for (const line of feedLines(overview)) console.log(line);
      }
    });
}

/** Contradictory options: one clear line, exit 1. */
export class FeedsUsageError extends Error {}
