import { rmSync } from 'node:fs';
import { afterAll, expect, it, vi } from 'vitest';
import { mockedElectrons } from './fakeElectron';

// The real entry (src/main/index.ts) against a mocked `electron`, on a machine whose clock is in Tokyo.
const state = vi.hoisted(() => {
  process.env.TZ = 'Asia/Tokyo';
  return { userData: '' };
});
vi.mock('electron', async () => {
  const { fakeElectron, mockedElectrons: made } = await import('./fakeElectron');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  state.userData = mkdtempSync(`${tmpdir()}/calendar-desk-entry-`);
  // The entry reads process.env: a throwaway home, never the real user's calendar.
  process.env.XDG_DATA_HOME = `${state.userData}/share`;
  process.env.XDG_CONFIG_HOME = `${state.userData}/config`;
  delete process.env.CALENDAR_DESK_DATA;
  const fake = fakeElectron({ userData: state.userData });
  made.push(fake);
  return fake.electron;
});

afterAll(() => rmSync(state.userData, { recursive: true, force: true }));

it('a new calendar gets the OS time zone, read before the engine pins the process clock to UTC', async () => {
  const { desktop: started } = await import('../../src/main/index');
  const desktop = await started;
  expect(desktop).not.toBeNull();
  expect(process.env.TZ).toBe('UTC');
  expect(desktop!.engine.store.settings.timezone).toBe('Asia/Tokyo');

  const fake = mockedElectrons[0];
  fake.app.emit('before-quit', { preventDefault: () => undefined });
  expect(await fake.exit).toBe(0);
});
