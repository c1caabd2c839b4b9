import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { mockedElectrons } from './fakeElectron';

// The real entry (src/main/index.ts) against a mocked `electron` whose single-instance lock is already taken.
const userData = vi.hoisted(() => ({ dir: '' }));
vi.mock('electron', async () => {
  const { fakeElectron, mockedElectrons: made } = await import('./fakeElectron');
  const { mkdtempSync: temp } = await import('node:fs');
  const { tmpdir: tmp } = await import('node:os');
  userData.dir = temp(`${tmp()}/calendar-desk-entry-`);
  const fake = fakeElectron({ userData: userData.dir, singleInstance: false });
  made.push(fake);
  return fake.electron;
});

afterAll(() => rmSync(userData.dir, { recursive: true, force: true }));

it('a second instance quits at once, without starting an engine or touching the data folder', async () => {
  const entry = await import('../../src/main/index');
  expect(await entry.desktop).toBeNull();
  const fake = mockedElectrons[0];
  expect(fake.app.quit).toHaveBeenCalled();
  expect(fake.app.requestSingleInstanceLock).toHaveBeenCalledTimes(1);
  expect(fake.app.whenReady).not.toHaveBeenCalled();
  expect(fake.app.exit).not.toHaveBeenCalled();
  expect(fake.electron.dialog.showErrorBox).not.toHaveBeenCalled();
  expect(existsSync(join(userData.dir, 'data'))).toBe(false);
});
