import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, startServe } from './cliProcess';

let home: string;
beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-zone-'));
});
afterAll(() => rm(home, { recursive: true, force: true }));

/** The site time zone a fresh `serve` gives a new data folder on a machine set to `machineZone` (TZ). */
async function newCalendarZone(folder: string, machineZone: string | undefined): Promise<string> {
  const env = isolatedEnv(home);
  if (machineZone === undefined) delete env.TZ;
  else env.TZ = machineZone;
  const serve = await startServe(['--port', '0', '--data', join(home, folder)], env);
  try {
    const token = (await readFile(serve.tokenFile, 'utf8')).trim();
    const response = await fetch(
      `${serve.apiRoot.replace(/cal\/events\/v1\/?$/, '')}calendar-desk/v1/settings`,
      {
        headers: { Authorization: `Bearer ${token}` },
      },
    );
    return ((await response.json()) as { timezone: string }).timezone;
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
}

it('a new calendar in headless mode takes the machine time zone, under its current name (CONTRACT §3)', async () => {
  expect(await newCalendarZone('rome', 'Europe/Rome')).toBe('Europe/Rome');
  // ICU still calls it Asia/Calcutta: the calendar gets the name people use today.
  expect(await newCalendarZone('kolkata', 'Asia/Kolkata')).toBe('Asia/Kolkata');
  expect(await newCalendarZone('kyiv', 'Europe/Kiev')).toBe('Europe/Kyiv');
  // A machine zone nobody knows: UTC.
  expect(await newCalendarZone('unknown', 'Nowhere/Atlantis')).toBe('UTC');
});
