import { randomUUID } from 'node:crypto';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DurableJsonFile } from '../../src/main/store/durableJsonFile';
import { CalendarStore, DATA_FILE_NAME, DataFileInvalidError } from '../../src/main/store/store';
import type { Settings, StoredTerm } from '../../src/main/store/schema';
import { migrate, MIGRATIONS } from '../../src/main/store/migrations';
import { eventRecord } from '../../src/main/core/eventRecord';

const settings: Settings = { siteName: 'Test', siteDescription: '', timezone: 'UTC', postsPerPage: 10 };
let dataDir: string;
const open = (options: Partial<Parameters<typeof CalendarStore.open>[0]> = {}) =>
  CalendarStore.open({ dataDir, initialSettings: settings, lock: false, ...options });

const term = (id: number, name: string): StoredTerm => ({
  id,
  uid: randomUUID(),
  taxonomy: 'tag',
  name,
  slug: name.toLowerCase(),
  description: '',
  parent: 0,
  language: 'en',
  modifiedUtc: '2026-11-22 00:00:00',
  revision: 1,
});

const addTag = (store: CalendarStore, name: string) =>
  store.mutate((tx) => tx.putTerm(term(tx.nextTermId(), name)));
const tagNames = (store: CalendarStore) => [...store.terms.values()].map((stored) => stored.name);
const journals = async () => (await readdir(dataDir)).filter((name) => name.startsWith('journal-'));

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'journaled-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('the journaled store', () => {
  it('commits to the journal without rewriting the data file, and replays it after a crash', async () => {
    const first = await open();
    const fileBefore = await readFile(join(dataDir, DATA_FILE_NAME), 'utf8');
    await Promise.all(['a', 'b', 'c'].map((name) => addTag(first, name)));
    await first.mutate((tx) => tx.deleteTerm(2, '2026-11-22 00:00:00'));
    expect(await readFile(join(dataDir, DATA_FILE_NAME), 'utf8')).toBe(fileBefore);

    // No close(): as after SIGKILL, the next start must find everything in the journal.
    const second = await open();
    expect(tagNames(second).sort()).toEqual(['a', 'c']);
    expect(await second.mutate((tx) => tx.nextTermId())).toBe(4);
    await second.close();
  });

  it('groups concurrent changes into one journal batch', async () => {
    const store = await open();
    await Promise.all(Array.from({ length: 20 }, (_, index) => addTag(store, `t${index}`)));
    const lines = (await readFile(join(dataDir, (await journals())[0]), 'utf8')).trim().split('\n');
    expect(lines.length).toBeLessThan(20);
    await store.close();
  });

  it('folds the journal into the data file when it grows', async () => {
    const store = await open({ journal: { compactAfterBytes: 2_000 } });
    for (let index = 0; index < 30; index++) await addTag(store, `tag${index}`);
    await store.close();
    const file = JSON.parse(await readFile(join(dataDir, DATA_FILE_NAME), 'utf8'));
    expect(file.terms).toHaveLength(30);
    expect(file.journalSeq).toBe(30);
    const reopened = await open();
    expect(tagNames(reopened)).toHaveLength(30);
    await reopened.close();
  });

  it('lets the journal grow to a share of a larger data file before folding it into the file', async () => {
    // Folding rewrites the whole file: were it done every few megabytes whatever the file's size, each change
    // would pay a share of a rewrite that grows with the calendar (issue 32).
    const seeded = await open();
    for (let index = 0; index < 150; index++) await addTag(seeded, `seed${index}`);
    await seeded.close();
    const file = join(dataDir, DATA_FILE_NAME);
    const fileBytes = (await stat(file)).size;
    const seqOnDisk = async () =>
      (JSON.parse(await readFile(file, 'utf8')) as { journalSeq: number }).journalSeq;
    const folded = await seqOnDisk();
    // The journal being appended to: the newest (older ones are kept, folded, for the backups).
    const journalBytes = async () => (await stat(join(dataDir, (await journals()).sort().at(-1)!))).size;

    const store = await open({ journal: { compactAfterBytes: 1_000, compactAtShareOfFile: 0.5 } });
    let added = 0;
    while ((await journalBytes()) < fileBytes * 0.4) await addTag(store, `more${added++}`);
    expect(fileBytes * 0.4).toBeGreaterThan(1_000);
    expect(await seqOnDisk()).toBe(folded); // past 1,000 bytes, below half the file: not folded yet
    while ((await journalBytes()) < fileBytes * 0.6) await addTag(store, `more${added++}`);
    await vi.waitFor(async () => expect(await seqOnDisk()).toBeGreaterThan(folded), { timeout: 5_000 });
    await store.close();
    const reopened = await open();
    expect(tagNames(reopened)).toHaveLength(150 + added);
    await reopened.close();
  });

  it('restores a damaged data file from its backup plus the journals since, losing nothing', async () => {
    const store = await open({ journal: { compactAfterBytes: 2_000 } });
    for (let index = 0; index < 30; index++) await addTag(store, `tag${index}`);
    await store.close();
    await writeFile(join(dataDir, DATA_FILE_NAME), '{"truncated": ');
    const restored = await open();
    expect(restored.notices.join(' ')).toMatch(/damaged/);
    expect(tagNames(restored)).toHaveLength(30);
    await restored.close();
  });

  it('drops folded journals once a newer backup contains them, so they do not pile up', async () => {
    let clock = Date.parse('2026-11-22T10:00:00Z');
    const journal = { compactAfterBytes: 400, backupIntervalMs: 1, now: () => new Date((clock += 60_000)) };
    const store = await open({ journal });
    for (let index = 0; index < 60; index++) await addTag(store, `tag${index}`);
    await store.idle();
    expect((await journals()).length).toBeLessThanOrEqual(3);
    await store.close();
  });

  it('recovers from a crash between a journal rotation and the snapshot it was for', async () => {
    const crashed = await open();
    for (const name of ['a', 'b', 'c']) await addTag(crashed, name);
    // The rotation had created the next (empty) journal; the snapshot never got written.
    await writeFile(join(dataDir, 'journal-000000000004.log'), '');
    const restarted = await open();
    expect(tagNames(restarted)).toEqual(['a', 'b', 'c']);
    await addTag(restarted, 'd');
    await restarted.idle();
    // As another crash would leave it: no clean shutdown folding the journal.
    const onDisk = await CalendarStore.inspect(dataDir, settings);
    expect(onDisk.terms.map((stored) => stored.name)).toEqual(['a', 'b', 'c', 'd']);
    await restarted.close();
  });

  it('discards a torn last journal line and says so', async () => {
    const store = await open();
    await addTag(store, 'kept');
    const [journal] = await journals();
    await appendFile(join(dataDir, journal), '0badc0de {"seq":2,"ops":[{"t":"put","c":"terms","v":{"id":');
    const reopened = await open();
    expect(tagNames(reopened)).toEqual(['kept']);
    expect(reopened.notices.join(' ')).toMatch(/unfinished last change/);
    await reopened.close();
  });

  it('replays every intact change around a damaged journal line, says so and keeps a copy of the journal', async () => {
    const store = await open();
    for (const name of ['first', 'second', 'third']) await addTag(store, name);
    // As a crash would leave it: the journal is not folded into the data file.
    const [journal] = await journals();
    const lines = (await readFile(join(dataDir, journal), 'utf8')).split('\n');
    expect(lines[1]).toContain('"second"');
    lines[1] = lines[1].replace('"second"', '"sec0nd"');
    await writeFile(join(dataDir, journal), lines.join('\n'));

    const reopened = await open();
    expect(tagNames(reopened)).toEqual(['first', 'third']);
    expect(reopened.notices.join(' ')).toMatch(/1 line .* failed their checksum/);
    expect(reopened.notices.join(' ')).toMatch(/Change 2 was not found/);
    const copies = (await readdir(dataDir)).filter((name) => name.startsWith(`${journal}.damaged-`));
    expect(copies).toHaveLength(1);
    await reopened.close();

    // Once folded into the data file, the damage is old news: no notice, no new copy.
    const again = await open();
    expect(tagNames(again)).toEqual(['first', 'third']);
    expect(again.notices).toEqual([]);
    expect((await readdir(dataDir)).filter((name) => name.includes('.damaged-'))).toHaveLength(1);
    await again.close();
  });

  it('reports damage at the end of an older journal (complete when rotated) and keeps a copy of it', async () => {
    const line = (seq: number, name: string) => {
      const json = JSON.stringify({ seq, ops: [{ t: 'put', c: 'terms', v: term(seq, name) }] });
      return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
    };
    // As a crash between a rotation and its snapshot leaves it, after the disk damaged batch 2.
    await writeFile(
      join(dataDir, 'journal-000000000001.log'),
      line(1, 'one') + line(2, 'two').replace('two', 'tw0'),
    );
    await writeFile(join(dataDir, 'journal-000000000003.log'), line(3, 'three'));
    const store = await open();
    expect(tagNames(store)).toEqual(['one', 'three']);
    expect(store.notices.join(' ')).toMatch(/journal-000000000001\.log had 1 line .* failed their checksum/);
    expect(store.notices.join(' ')).toMatch(/Change 2 was not found/);
    await store.close();
    const copies = (await readdir(dataDir)).filter((name) =>
      name.startsWith('journal-000000000001.log.damaged-'),
    );
    expect(copies).toHaveLength(1);
  });

  it('keeps a bounded number of rolling backups and restores the newest when the data file is damaged', async () => {
    let clock = Date.parse('2026-11-22T10:00:00Z');
    const journal = {
      compactAfterBytes: 300,
      backups: 2,
      backupIntervalMs: 1,
      now: () => new Date((clock += 60_000)),
    };
    const store = await open({ journal });
    for (let index = 0; index < 12; index++) await addTag(store, `tag${index}`);
    await store.close();
    const backups = await readdir(join(dataDir, 'backups'));
    expect(backups.length).toBe(2);

    await writeFile(join(dataDir, DATA_FILE_NAME), '{ not json');
    const restored = await open({ journal });
    expect(restored.notices.join(' ')).toMatch(/damaged.*backup/);
    expect(tagNames(restored).length).toBeGreaterThan(0);
    expect((await readdir(dataDir)).some((name) => name.startsWith(`${DATA_FILE_NAME}.damaged-`))).toBe(true);
    await restored.close();
  });

  it('keeps making backups after the clock was set back, instead of waiting for the old date', async () => {
    let clock = Date.now();
    const journal = { compactAfterBytes: 300, backups: 5, now: () => new Date(clock) };
    const store = await open({ journal });
    for (let index = 0; index < 6; index++) await addTag(store, `before${index}`);
    await store.idle();
    const made = (await readdir(join(dataDir, 'backups'))).length;
    expect(made).toBeGreaterThan(0);

    clock -= 24 * 3_600_000; // a day back: the last backup now seems made tomorrow
    for (let index = 0; index < 6; index++) await addTag(store, `after${index}`);
    await store.idle();
    expect((await readdir(join(dataDir, 'backups'))).length).toBeGreaterThan(made);
    await store.close();
  });

  it('checks every record of a data file someone else changed, though it trusts the one it wrote', async () => {
    const store = await open();
    await addTag(store, 'good');
    await store.close();
    const trusted = await open();
    expect(tagNames(trusted)).toEqual(['good']);
    await trusted.close();
    // A hand edit that keeps the JSON valid but breaks a record is caught (and the backup restored).
    const file = join(dataDir, DATA_FILE_NAME);
    await writeFile(file, (await readFile(file, 'utf8')).replace('"name":"good"', '"name":42'));
    const checked = await open();
    expect(checked.notices.join(' ')).toMatch(/damaged/);
    expect(tagNames(checked)).toEqual(['good']);
    await checked.close();
  });

  it('does not vouch for a data file that changed while it was being read', async () => {
    const store = await open();
    await addTag(store, 'good');
    await store.close();
    const file = join(dataDir, DATA_FILE_NAME);
    const original = await readFile(file, 'utf8');
    await writeFile(file, original.replace('"name":"good"', '"name":"edited"'));
    // Someone breaks a record just after the (valid) edited file was read and checked.
    const realRead = DurableJsonFile.prototype.read;
    const spy = vi.spyOn(DurableJsonFile.prototype, 'read').mockImplementationOnce(async function (
      this: DurableJsonFile<unknown>,
    ) {
      const content = await realRead.call(this);
      await writeFile(file, original.replace('"name":"good"', '"name":42'));
      return content;
    });
    try {
      const checked = await open();
      expect(tagNames(checked)).toEqual(['edited']);
      await checked.close();
    } finally {
      spy.mockRestore();
    }
    // The next start checks the broken file fully instead of trusting it.
    const next = await open();
    expect(next.notices.join(' ')).toMatch(/damaged/);
    expect(tagNames(next).every((name) => typeof name === 'string')).toBe(true);
    await next.close();
  });

  it('refuses a damaged data file it has no backup for, leaving it untouched', async () => {
    await writeFile(join(dataDir, DATA_FILE_NAME), '{ not json');
    await expect(open()).rejects.toBeInstanceOf(DataFileInvalidError);
    expect(await readFile(join(dataDir, DATA_FILE_NAME), 'utf8')).toBe('{ not json');
  });

  it('upgrades a schema version 1 file and says so', async () => {
    const v1 = {
      schemaVersion: 1,
      counters: { post: 0, term: 1, user: 0 },
      settings,
      events: [],
      venues: [],
      organizers: [],
      terms: [withoutUid(term(1, 'Old'))],
      media: [],
      users: [],
      tokens: [],
      syncLinks: {},
    };
    await writeFile(join(dataDir, DATA_FILE_NAME), JSON.stringify(v1));
    const store = await open();
    expect(tagNames(store)).toEqual(['Old']);
    expect(store.notices.join(' ')).toMatch(/upgraded to schema version 5/);
    expect(JSON.parse(await readFile(join(dataDir, DATA_FILE_NAME), 'utf8')).schemaVersion).toBe(5);
    await store.close();
  });

  it('gives every record of a schema version 2 file a uid once, and keeps it on the next start', async () => {
    const event = eventRecord({
      id: 1,
      authorId: 0,
      status: 'publish',
      language: 'en',
      dateUtc: NOW,
      timezone: 'UTC',
    });
    const v2 = {
      schemaVersion: 2,
      journalSeq: 0,
      counters: { post: 1, term: 2, user: 0 },
      settings,
      events: [withoutUid(event)],
      venues: [],
      organizers: [],
      terms: [withoutUid(term(1, 'Old')), withoutUid(term(2, 'Older'))],
      media: [],
      users: [],
      tokens: [],
      syncLinks: {},
    };
    await writeFile(join(dataDir, DATA_FILE_NAME), JSON.stringify(v2));
    const store = await open();
    const uids = () => [...store.events.values(), ...store.terms.values()].map((record) => record.uid);
    const given = uids();
    expect(given).toHaveLength(3);
    for (const uid of given) expect(uid).toMatch(UUID);
    expect(new Set(given).size).toBe(3);
    const onDisk = JSON.parse(await readFile(join(dataDir, DATA_FILE_NAME), 'utf8'));
    expect([...onDisk.events, ...onDisk.terms].map((record: { uid: string }) => record.uid)).toEqual(given);
    await store.close();

    const reopened = await open();
    expect([...reopened.events.values(), ...reopened.terms.values()].map((record) => record.uid)).toEqual(
      given,
    );
    expect(reopened.notices.join(' ')).not.toMatch(/upgraded/);
    await reopened.close();
  });

  it('gives a uid to records of journal batches written before the upgrade (an unclean stop, then a new version)', async () => {
    const v2 = {
      schemaVersion: 2,
      journalSeq: 0,
      counters: { post: 0, term: 2, user: 0 },
      settings,
      ...{ events: [], venues: [], organizers: [], media: [], users: [], tokens: [], syncLinks: {} },
      terms: [withoutUid(term(1, 'Old'))],
    };
    await writeFile(join(dataDir, DATA_FILE_NAME), JSON.stringify(v2));
    const json = JSON.stringify({
      seq: 1,
      ops: [
        { t: 'put', c: 'terms', v: withoutUid(term(1, 'Renamed')) },
        { t: 'put', c: 'terms', v: withoutUid(term(2, 'New')) },
      ],
    });
    await writeFile(
      join(dataDir, 'journal-000000000001.log'),
      `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`,
    );
    const store = await open();
    expect(tagNames(store)).toEqual(['Renamed', 'New']);
    const given = [...store.terms.values()].map((stored) => stored.uid);
    for (const uid of given) expect(uid).toMatch(UUID);
    expect(new Set(given).size).toBe(2);
    await store.close();
    const reopened = await open();
    expect([...reopened.terms.values()].map((stored) => stored.uid)).toEqual(given);
    await reopened.close();
  });
});

const NOW = '2026-01-01 10:00:00';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** A record as files written before uids held it. */
const withoutUid = <T extends { uid: string }>(record: T): Omit<T, 'uid'> => {
  const { uid: _uid, ...rest } = record;
  return rest;
};

describe('migrations', () => {
  it('are ordered, each one version forward', () => {
    const versions = MIGRATIONS.map((migration) => migration.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('apply only the steps after the file version, in order', () => {
    const steps = [
      {
        version: 2,
        describe: 'two',
        migrate: (data: Record<string, unknown>) => ({ ...data, schemaVersion: 2, two: true }),
      },
      {
        version: 3,
        describe: 'three',
        migrate: (data: Record<string, unknown>) => ({ ...data, schemaVersion: 3, three: data.two }),
      },
    ];
    expect(migrate({ schemaVersion: 1 }, steps, 3)).toEqual({
      data: { schemaVersion: 3, two: true, three: true },
      applied: [2, 3],
    });
    expect(migrate({ schemaVersion: 2 }, steps, 3).applied).toEqual([3]);
    expect(migrate({ schemaVersion: 3 }, steps, 3).applied).toEqual([]);
  });
});
