import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, lastLine, runCli } from './cliProcess';

// The command as a user runs it, without --data: the platform's folder, or the one an earlier version used.
let home: string;
beforeAll(() => ensureBuilt());
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-home-'));
});
afterEach(() => rm(home, { recursive: true, force: true }));

it('a new user’s calendar goes to ~/.local/share/calendar-desk (XDG data home)', async () => {
  const env = isolatedEnv(home);
  delete env.XDG_DATA_HOME;
  const run = await runCli(['token'], env);
  expect(run.code, run.stderr).toBe(0);
  const folder = join(home, '.local', 'share', 'calendar-desk');
  expect(lastLine(run.stdout)).toBe((await readFile(join(folder, 'admin-token'), 'utf8')).trim());
});

it('a calendar an earlier version kept in ~/.config/Calendar Desk/data is found and used where it is', async () => {
  const old = join(home, '.config', 'Calendar Desk', 'data');
  const first = await runCli(['token', '--data', old], isolatedEnv(home));
  expect(first.code, first.stderr).toBe(0);
  const before = (await readdir(old)).sort();

  const run = await runCli(['token'], isolatedEnv(home));
  expect(run.code, run.stderr).toBe(0);
  expect(lastLine(run.stdout)).toBe(lastLine(first.stdout));
  expect((await readdir(old)).sort()).toEqual(before);
  expect(existsSync(join(home, '.local', 'share', 'calendar-desk'))).toBe(false);
});
