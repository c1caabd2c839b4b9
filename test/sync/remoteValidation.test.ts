import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataFolderText, eventBody } from '../helpers/server';
import { startProxy, type Proxy } from '../helpers/proxy';
import { allOf, startSyncPair, type SyncPair } from './syncHelpers';
import { reportLines } from '../../src/main/cli/syncOutput';

/**
 * What a remote sends is validated like what a user sends (issue 26, item 10): a proxy in front of a real
 * Calendar Desk sends three of its events broken — a title as an object, a start date as a number, a
 * description as a list — and each fails alone in the report, naming the field and the remote; the rest syncs.
 */
const BROKEN: Record<string, (event: Record<string, unknown>) => void> = {
  'Broken title': (event) => (event.title = { rendered: 'Broken title' }),
  'Broken date': (event) => (event.start_date = 12345),
  'Broken text': (event) => (event.description = ['a', { b: 1 }]),
  'Broken cost': (event) => (event.cost_details = { values: [{ amount: 5 }] }),
  'Broken status': (event) => (event.status = 'hacked'),
  'Broken uid': (event) => (event.uid = '../../etc'),
  'Broken flag': (event) => (event.all_day = 'yes'),
  'Broken organizers': (event) => (event.organizer = [7]),
};

/**
 * Venues, organizers, categories and tags broken as the records of their kind (found by the name field of
 * each), wherever they appear but inside an event (an event embeds them, read there for their ids only).
 */
const BROKEN_OTHERS: Record<string, [string, (record: Record<string, unknown>) => void]> = {
  'Broken hall': ['venue', (venue) => (venue.show_map = 'yes')],
  'Broken choir': ['organizer', (organizer) => (organizer.email = 42)],
  'Broken category': ['name', (term) => (term.parent = 'top')],
  'Broken tag': ['name', (term) => (term.description = { rendered: 'x' })],
  'Broken lodge': ['venue', (venue) => (venue.uid = 7)],
};

/** Breaks, anywhere in a JSON answer (lists, single reads, the change feed), the events named in BROKEN. */
function breakEvents(value: unknown, inEvent = false): void {
  if (Array.isArray(value)) value.forEach((item) => breakEvents(item, inEvent));
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const isEvent = typeof record.title === 'string' && 'start_date' in record;
    const breaker = isEvent ? BROKEN[record.title as string] : undefined;
    const other = Object.entries(BROKEN_OTHERS).find(([name, [key]]) => record[key] === name)?.[1][1];
    Object.values(record).forEach((item) => breakEvents(item, inEvent || isEvent));
    breaker?.(record);
    if (!inEvent) other?.(record);
  }
}

let pair: SyncPair;
let proxy: Proxy;
let breaking = true;
beforeEach(async () => {
  pair = await startSyncPair();
  breaking = true;
  proxy = await startProxy(
    pair.remote.engine.origin,
    () => null,
    (_seen, body) => {
      if (!breaking) return body;
      try {
        const parsed: unknown = JSON.parse(body);
        breakEvents(parsed);
        return JSON.stringify(parsed);
      } catch {
        return body;
      }
    },
  );
});
afterEach(async () => {
  await proxy.close();
  await pair.close();
});

async function addRemoteEvents(titles: string[]) {
  for (const [index, title] of titles.entries()) {
    const created = await pair.remote.api('events', {
      method: 'POST',
      auth: pair.remote.admin,
      json: eventBody(title, index + 2),
    });
    expect(created.status).toBe(201);
  }
}

describe('records a remote sends are validated', () => {
  it('an event that does not fit fails alone, naming the field and the remote; the others sync', async () => {
    await addRemoteEvents(['Fair', 'Broken title', 'Broken date', 'Broken text', 'Broken cost', 'Concert']);
    for (const dryRun of [true, false]) {
      const report = await pair.sync({ root: proxy.root, direction: 'both', dryRun });
      expect(report.summary).toMatchObject({ imported: 2, failed: 4 });
      // Titled as sent when the title is text; the one sent as an object is named by its remote id.
      expect(report.failures.map((failure) => failure.title).sort()).toEqual([
        'Broken cost',
        'Broken date',
        'Broken text',
        expect.stringMatching(/^event \d+$/),
      ]);
      for (const failure of report.failures) {
        expect(failure).toMatchObject({ kind: 'event', localId: 0, code: 'remote_bad_record' });
        expect(failure.message).toContain(proxy.root);
      }
      const messages = report.failures.map((failure) => failure.message).join('\n');
      expect(messages).toMatch(/its title must be text, not an object/);
      expect(messages).toMatch(/its start_date must be a date written YYYY-MM-DD HH:MM:SS, not 12345/);
      expect(messages).toMatch(/its description must be text, not a list/);
      expect(messages).toMatch(/its cost_details\.values\.0 must be a cost, not an object/);
      // `calendar-desk sync` prints each, without a local id it does not have.
      expect(reportLines(report)).toContainEqual(
        expect.stringMatching(/^ {2}event "Broken date": .*start_date/),
      );
    }
    const titles = (await allOf(pair.local, 'events')).map((event) => event.title).sort();
    expect(titles).toEqual(['Concert', 'Fair']);
    const stored = await dataFolderText(pair.local.dataDir);
    expect(stored).not.toContain('[object Object]');
    expect(stored).not.toContain('1970-01-01');
    expect(stored).not.toContain('Broken');
  });

  it('each kind is read as its dialect writes it: what does not fit fails alone, in words, the rest syncs', async () => {
    await addRemoteEvents(['Fair', 'Broken status', 'Broken uid', 'Broken flag', 'Broken organizers']);
    const add = async (collection: string, json: Record<string, unknown>) => {
      const created = await pair.remote.api(collection, { method: 'POST', auth: pair.remote.admin, json });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    };
    await add('venues', { venue: 'Broken hall', city: 'Lyon' });
    await add('venues', { venue: 'Broken lodge' });
    await add('venues', { venue: 'Good hall' });
    await add('organizers', { organizer: 'Broken choir' });
    await add('organizers', { organizer: 'Good choir' });
    await add('categories', { name: 'Broken category' });
    await add('categories', { name: 'Good category' });
    await add('tags', { name: 'Broken tag' });
    await add('tags', { name: 'Good tag' });

    const told: string[] = [];
    const report = await pair.sync({
      root: proxy.root,
      direction: 'both',
      onProgress: (event) => {
        if (event.type === 'rejected') told.push(`${event.kind} ${event.title}: ${event.message}`);
      },
    });
    // Told as progress once the remote is read, each as the report lists it.
    expect(told.sort()).toEqual(
      report.failures.map((failure) => `${failure.kind} ${failure.title}: ${failure.message}`).sort(),
    );
    const failures = Object.fromEntries(
      report.failures.map((failure) => [failure.title, `${failure.kind}: ${failure.message}`]),
    );
    expect(Object.keys(failures).sort()).toEqual(
      [
        'Broken category',
        'Broken choir',
        'Broken flag',
        'Broken hall',
        'Broken lodge',
        'Broken organizers',
        'Broken status',
        'Broken tag',
        'Broken uid',
      ].sort(),
    );
    // The remote's words: which record and field, what was sent there, what it must be; the remote named.
    expect(failures['Broken status']).toMatch(
      /^event: .*its status must be one of publish, future, draft, pending, private, trash, auto-draft, inherit, not "hacked"/,
    );
    expect(failures['Broken uid']).toMatch(/its uid must be a UUID, not "\.\.\/\.\.\/etc"/);
    expect(failures['Broken flag']).toMatch(/its all_day must be true or false, not "yes"/);
    expect(failures['Broken organizers']).toMatch(/its organizer\.0 must be an object, not 7/);
    expect(failures['Broken hall']).toMatch(/^venue: .*its show_map must be true or false, not "yes"/);
    expect(failures['Broken lodge']).toMatch(/^venue: .*its uid must be a UUID, not 7/);
    expect(failures['Broken choir']).toMatch(/^organizer: .*its email must be text, not 42/);
    expect(failures['Broken category']).toMatch(/^category: .*its parent must be a number, not "top"/);
    expect(failures['Broken tag']).toMatch(/^tag: .*its description must be text, not an object/);
    for (const failure of report.failures) {
      expect(failure).toMatchObject({ localId: 0, code: 'remote_bad_record' });
      expect(failure.message).toContain(proxy.root);
    }
    // The rest came, nothing of the broken ones.
    expect((await allOf(pair.local, 'events')).map((event) => event.title)).toEqual(['Fair']);
    expect((await allOf(pair.local, 'venues')).map((venue) => venue.venue)).toEqual(['Good hall']);
    expect((await allOf(pair.local, 'organizers')).map((organizer) => organizer.organizer)).toEqual([
      'Good choir',
    ]);
    expect((await allOf(pair.local, 'categories')).map((term) => term.name)).toEqual(['Good category']);
    expect((await allOf(pair.local, 'tags')).map((term) => term.name)).toEqual(['Good tag']);
    const stored = await dataFolderText(pair.local.dataDir);
    expect(stored).not.toContain('Broken');
    expect(stored).not.toContain('hacked');
  });

  it('an event synced before that comes back broken fails without being changed or trashed here', async () => {
    await addRemoteEvents(['Broken title', 'Fair']);
    breaking = false;
    const first = await pair.sync({ root: proxy.root, direction: 'both' });
    expect(first.summary).toMatchObject({ imported: 2, failed: 0 });
    const local = (await allOf(pair.local, 'events')).find((event) => event.title === 'Broken title')!;
    // Changed on the remote, then sent broken: the local event keeps its last good state.
    const [theirs] = (await allOf(pair.remote, 'events')).filter((event) => event.title === 'Broken title');
    await pair.remote.api(`events/${theirs.id}`, {
      method: 'POST',
      auth: pair.remote.admin,
      json: { description: 'changed there' },
    });
    breaking = true;
    const second = await pair.sync({ root: proxy.root, direction: 'both' });
    expect(second.failures).toEqual([
      expect.objectContaining({ kind: 'event', localId: local.id, code: 'remote_bad_record' }),
    ]);
    expect(second.operations.filter((operation) => operation.localId === local.id)).toEqual([]);
    const after = await pair.local.api(`events/${local.id}`, { auth: pair.local.admin });
    expect(after.body).toMatchObject({ title: 'Broken title', status: 'publish' });
    expect(after.body.description).not.toContain('changed there');
  });
});
