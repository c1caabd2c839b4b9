#!/usr/bin/env node
// Entry of the `calendar-desk` command: runs the CLI that `npm run build` (also run by `npm ci`) produced.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const built = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(built)) {
  console.error(
    'calendar-desk: the app is not built yet. Run "npm run build" (npm ci does it for you) and try again.',
  );
  process.exit(1);
}
// The machine's time zone (for a new calendar), read before the CLI loads: the engine pins TZ to UTC.
const machineZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const { main } = await import(pathToFileURL(built).href);
await main(process.argv, { machineZone });
