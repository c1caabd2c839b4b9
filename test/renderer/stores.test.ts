// @vitest-environment happy-dom
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { startTestServer, eventBody, type TestServer } from '../helpers/server';
import { rememberedTimezone, useSessionStore } from '../../src/renderer/src/stores/session';
import { ApiClient } from '../../src/renderer/src/api/client';
import { useEventsStore } from '../../src/renderer/src/stores/events';
import { useRecordsStore } from '../../src/renderer/src/stores/records';
import { useNoticesStore } from '../../src/renderer/src/stores/notices';
import { usePreferencesStore } from '../../src/renderer/src/stores/preferences';
import { useCalendarPlaceStore } from '../../src/renderer/src/stores/calendarPlace';
import type { CalendarDeskBridge } from '../../src/shared/bridge';

/** The Pinia stores against a real server: the renderer's only path to the data is this HTTP API. */
let server: TestServer;

/** The page is served by the engine itself (same origin), as `serve` and the desktop window do. */
function openPageOnEngine() {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    `${server.engine.origin}/`,
  );
}

beforeAll(async () => {
  server = await startTestServer({ timezone: 'Europe/Warsaw' });
  openPageOnEngine();
  // 60 events in one week: more than one page of the API (50 at most).
  for (let index = 0; index < 60; index += 1) {
    await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: { ...eventBody(`Class ${index}`, 10 + (index % 5)), ...(index === 0 ? { status: 'draft' } : {}) },
    });
  }
});
afterAll(() => server.close());

beforeEach(() => {
  setActivePinia(createPinia());
  localStorage.clear();
  delete window.calendarDesk;
});

const desktopBridge = (token: string): CalendarDeskBridge => ({
  connection: async () => ({ apiRoot: `${server.engine.apiRoot}`, token }),
  appVersion: '0.0.0-test',
  openExternal: async () => true,
});

/** What this browser keeps in its local storage: the site's zone alone, never a token or a session. */
function storedKeys(): string[] {
  return Array.from({ length: localStorage.length }, (_, index) => localStorage.key(index)!);
}

describe('session store', () => {
  it('connects through the desktop bridge and learns the site zone and its role', async () => {
    window.calendarDesk = desktopBridge(server.engine.adminToken);
    const session = useSessionStore();
    await session.start();
    expect(session.state).toBe('ready');
    expect(session.siteTimezone).toBe('Europe/Warsaw');
    expect(session.isAdministrator).toBe(true);
  });

  it('in a browser: a one-time code opens a session (a cookie), which a reload keeps and signing out ends', async () => {
    const session = useSessionStore();
    await session.start();
    expect(session.state).toBe('signed-out');
    const code = new URL(server.engine.signInLink()).hash.split('code=')[1];
    await session.signInWithCode(code);
    expect(session.state).toBe('ready');
    expect(session.client?.connection.token).toBeUndefined();
    expect(storedKeys()).toEqual(['calendar-desk.siteTimezone']);

    // A new page load is signed in by the cookie; the code itself is spent.
    setActivePinia(createPinia());
    const reloaded = useSessionStore();
    await reloaded.start();
    expect(reloaded.state).toBe('ready');
    await expect(useSessionStore().signInWithCode(code)).rejects.toMatchObject({
      status: 401,
      code: 'rest_invalid_signin_code',
    });
    await reloaded.signOut();
    setActivePinia(createPinia());
    const afterSignOut = useSessionStore();
    await afterSignOut.start();
    expect(afterSignOut.state).toBe('signed-out');
  });

  it('a pasted token opens a session and is kept nowhere; a wrong one is refused', async () => {
    const session = useSessionStore();
    await expect(session.signIn('cdt_000000000000_wrongwrongwrongwrongwrongwrong12')).rejects.toMatchObject({
      status: 401,
    });
    expect(session.state).not.toBe('ready');
    await session.signIn(server.engine.adminToken);
    expect(session.state).toBe('ready');
    expect(session.client?.connection.token).toBeUndefined();
    expect(storedKeys()).toEqual(['calendar-desk.siteTimezone']);
    await session.signOut();
  });

  it('a token an older version left in local storage is removed, never used', async () => {
    localStorage.setItem('calendar-desk.token', server.engine.adminToken);
    const session = useSessionStore();
    await session.start();
    expect(session.state).toBe('signed-out');
    expect(localStorage.getItem('calendar-desk.token')).toBeNull();
  });

  it('changes the site time zone (administrators)', async () => {
    window.calendarDesk = desktopBridge(server.engine.adminToken);
    const session = useSessionStore();
    await session.start();
    await session.updateSettings({ timezone: 'Europe/Rome' });
    expect(session.siteTimezone).toBe('Europe/Rome');
    await expect(session.updateSettings({ timezone: 'Nowhere/Land' })).rejects.toMatchObject({
      fields: { timezone: expect.stringContaining('not a time zone') },
    });
    await session.updateSettings({ timezone: 'Europe/Warsaw' });
  });
});

describe('events store', () => {
  beforeEach(async () => {
    window.calendarDesk = desktopBridge(server.engine.adminToken);
    await useSessionStore().start();
  });

  it('loads every event of a range across pages, drafts included', async () => {
    const events = useEventsStore();
    const from = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 16 * 86_400_000).toISOString().slice(0, 10);
    const list = await events.loadRange(`${from} 00:00:00`, `${to} 23:59:59`);
    expect(list).toHaveLength(60);
    expect(new Set(list.map((event) => event.id)).size).toBe(60);
    expect(list.some((event) => event.status === 'draft')).toBe(true);
  });

  it('takes a range asked for while the settings were on their way as its first load of that range, once', async () => {
    const events = useEventsStore();
    const asked: string[] = [];
    let answered: Promise<Response> | undefined;
    const counting = new ApiClient(
      { apiRoot: server.engine.apiRoot, token: server.engine.adminToken },
      (input, init) => {
        asked.push(String(input));
        answered = fetch(input, init);
        return answered;
      },
    );
    const from = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 16 * 86_400_000).toISOString().slice(0, 10);
    events.prefetchRange(counting, `${from} 00:00:00`, `${to} 23:59:59`);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('/calendar-desk/v1/calendar?');
    await answered;
    // Created after that answer: the first load is the early answer (without it), the next one has it.
    const late = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Late class', 11),
    });
    const first = await events.loadRange(`${from} 00:00:00`, `${to} 23:59:59`);
    expect(first).toHaveLength(60);
    expect(first.map((event) => event.id)).not.toContain(late.body.id);
    const again = await events.loadRange(`${from} 00:00:00`, `${to} 23:59:59`);
    expect(again.map((event) => event.id)).toContain(late.body.id);
    expect(asked).toHaveLength(1);
    await server.api(`events/${late.body.id}?force=true`, { method: 'DELETE', auth: server.admin });
    // Another range is not the one asked early: the session's client asks for it.
    events.prefetchRange(counting, `${from} 00:00:00`, `${to} 23:59:59`);
    const shorter = await events.loadRange(`${from} 00:00:00`, `${from} 23:59:59`);
    expect(shorter.length).toBeLessThan(60);
    expect(asked).toHaveLength(2);
  });

  it('remembers the site zone for the next start, when it asks for the first range with the settings', () => {
    expect(rememberedTimezone()).toBe('Europe/Warsaw');
  });

  it('loads an event running into the range from before it, or past its end, and finds a venue booked twice', async () => {
    const events = useEventsStore();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const venue = await server.api('venues', { method: 'POST', auth: server.admin, json: { venue: 'Aula' } });
    const festival = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: {
        title: 'Three-day festival',
        start_date: `${day(40)} 10:00:00`,
        end_date: `${day(42)} 18:00:00`,
        venue: venue.body.id,
      },
    });
    // Only the middle day: the festival starts before it and ends after it.
    const middle = await events.loadRange(`${day(41)} 00:00:00`, `${day(41)} 23:59:59`);
    expect(middle.map((event) => event.id)).toContain(festival.body.id);
    const searched = await events.search({ from: day(41), to: day(41) }, 1);
    expect(searched.items.map((event) => event.id)).toEqual([festival.body.id]);
    expect((await events.search({ from: day(43) }, 1)).items.map((event) => event.id)).not.toContain(
      festival.body.id,
    );

    // Warsaw is UTC+1 or +2: the festival's 10:00 local start is 08:00 or 09:00 UTC.
    const clash = await events.bookedAt(venue.body.id, `${day(42)}T10:00:00Z`, `${day(42)}T11:00:00Z`);
    expect(clash.map((event) => event.id)).toEqual([festival.body.id]);
    expect(await events.bookedAt(venue.body.id, `${day(43)}T10:00:00Z`, `${day(43)}T11:00:00Z`)).toEqual([]);
    // The event itself is not a clash with itself.
    expect(
      await events.bookedAt(venue.body.id, `${day(42)}T10:00:00Z`, `${day(42)}T11:00:00Z`, festival.body.id),
    ).toEqual([]);
  });

  it('searches with filters and pages', async () => {
    const events = useEventsStore();
    const page = await events.search({ search: 'Class 5' }, 1, 5);
    // As WordPress: every word must match, so "Class 5", "Class 15"… and "Class 50"…"Class 59".
    const matching = Array.from({ length: 60 }, (_, index) => `Class ${index}`).filter((title) =>
      title.includes('5'),
    );
    expect(page).toMatchObject({ total: matching.length, totalPages: Math.ceil(matching.length / 5) });
    expect(page.items).toHaveLength(5);
    expect((await events.search({ status: 'draft' }, 1)).items.map((event) => event.title)).toEqual([
      'Class 0',
    ]);
  });

  it('searches the whole calendar: past events and ones more than two years ahead too', async () => {
    // Without explicit bounds the API lists only from yesterday to 24 months ahead.
    for (const [title, days] of [
      ['Reunion of 1950', Math.round((Date.UTC(1950, 4, 1) - Date.now()) / 86_400_000)],
      ['Reunion long ago', -400],
      ['Reunion far ahead', 3 * 366],
    ] as const) {
      const created = await server.api('events', {
        method: 'POST',
        auth: server.admin,
        json: eventBody(title, days),
      });
      expect(created.status).toBe(201);
    }
    const found = await useEventsStore().search({ search: 'Reunion' }, 1);
    expect(found.items.map((event) => event.title)).toEqual([
      'Reunion of 1950',
      'Reunion long ago',
      'Reunion far ahead',
    ]);
  });

  it('updates (PATCH), trashes and restores, telling views to reload each time', async () => {
    const events = useEventsStore();
    const [first] = (await events.search({ search: 'Class 42' }, 1)).items;
    const before = events.revision;
    const updated = await events.update(first.id, { title: 'Class 42 (moved)' });
    expect(updated.title).toBe('Class 42 (moved)');
    expect((await events.trash(first.id)).status).toBe('trash');
    expect((await events.restore(first.id, 'publish')).status).toBe('publish');
    expect(events.revision).toBe(before + 3);
    expect((await events.fetchOne(first.id)).title).toBe('Class 42 (moved)');
  });

  it('loads the calendar with each cost as typed, not as the API formats it for the public', async () => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Concert with reductions', 30, { cost: '15€ / 10€ reduced' }),
    });
    expect(created.body.cost).toBe('10€ – 15€');
    const day = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const list = await useEventsStore().loadRange(`${day} 00:00:00`, `${day} 23:59:59`);
    expect(list.find((event) => event.id === created.body.id)?.cost).toBe('15€ / 10€ reduced');
  });
});

describe('calendar place', () => {
  const today = { view: 'dayGridMonth', date: '2026-11-28' } as const;

  it('opens the calendar on an event just saved in another period, once', () => {
    const place = useCalendarPlaceStore();
    // Never shown in this session: it would open on today's month.
    place.showAfterSave('2026-12-01', today);
    expect(place.takeNext()).toBe('2026-12-01');
    expect(place.takeNext()).toBeNull();
    place.showAfterSave('2026-11-03', today);
    expect(place.takeNext()).toBeNull();
  });

  it('keeps its place when the period shown holds the event: the month of a month, a week, a day', () => {
    const place = useCalendarPlaceStore();
    place.view = 'dayGridMonth';
    place.date = '2027-01-01';
    // The grid shows 28 December too, but that is not January's event.
    place.showAfterSave('2026-12-28', today);
    expect(place.takeNext()).toBe('2026-12-28');
    place.showAfterSave('2027-01-31', today);
    expect(place.takeNext()).toBeNull();
    place.view = 'timeGridWeek';
    place.date = '2026-12-09';
    place.showAfterSave('2026-12-13', today);
    expect(place.takeNext()).toBeNull();
    place.showAfterSave('2026-12-14', today);
    expect(place.takeNext()).toBe('2026-12-14');
    place.view = 'timeGridDay';
    place.showAfterSave('2026-12-10', today);
    expect(place.takeNext()).toBe('2026-12-10');
  });
});

describe('records store', () => {
  beforeEach(async () => {
    window.calendarDesk = desktopBridge(server.engine.adminToken);
    await useSessionStore().start();
  });

  it('keeps complete lists for pickers and refreshes them after a write of that kind', async () => {
    const records = useRecordsStore();
    const before = await records.all('tags');
    expect(await records.all('tags')).toBe(before);
    const tag = await records.create('tags', { name: 'Brand new' });
    const after = await records.all('tags');
    expect(after.map((item) => item.id)).toContain(tag.id);
    // Empty terms are listed too (the API hides them unless asked).
    expect(after.find((item) => item.id === tag.id)?.count).toBe(0);
  });

  it('trashes a venue (restorable) and deletes a term for good', async () => {
    const records = useRecordsStore();
    const venue = await records.create('venues', { venue: 'Old hall' });
    expect((await records.remove('venues', venue.id)).status).toBe('trash');
    expect((await records.update('venues', venue.id, { status: 'publish' })).status).toBe('publish');
    const tag = await records.create('tags', { name: 'Short-lived' });
    await records.remove('tags', tag.id);
    expect((await records.all('tags')).some((item) => item.id === tag.id)).toBe(false);
  });
});

describe('notices and preferences', () => {
  it('shows only the latest confirmation and the last two errors, errors kept until dismissed', () => {
    const notices = useNoticesStore();
    notices.show({ kind: 'error', text: 'Disk full' });
    for (const text of ['a', 'b', 'c', 'd']) notices.show({ kind: 'success', text });
    expect(notices.notices.map((notice) => notice.text)).toEqual(['Disk full', 'd']);
    // An error does not push the confirmation out; a third error pushes the oldest error out.
    notices.show({ kind: 'error', text: 'Offline' });
    expect(notices.notices.map((notice) => notice.text)).toEqual(['Disk full', 'd', 'Offline']);
    notices.show({ kind: 'error', text: 'Refused' });
    expect(notices.notices.map((notice) => notice.text)).toEqual(['d', 'Offline', 'Refused']);
  });

  it('remembers theme, language and view in this browser', () => {
    const preferences = usePreferencesStore();
    preferences.theme = 'dark';
    preferences.language = 'pl';
    setActivePinia(createPinia());
    expect(usePreferencesStore()).toMatchObject({ theme: 'dark', language: 'pl' });
  });

  it('remembers that the "Share this calendar" invitation was answered, and offers it until then', () => {
    expect(usePreferencesStore().shareGuideDone).toBe(false);
    setActivePinia(createPinia());
    expect(usePreferencesStore().shareGuideDone).toBe(false);
    usePreferencesStore().shareGuideDone = true;
    setActivePinia(createPinia());
    expect(usePreferencesStore().shareGuideDone).toBe(true);
  });
});
