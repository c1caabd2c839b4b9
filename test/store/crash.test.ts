import { watch } from 'node:fs';
import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, startServe, type ServeProcess } from '../cli/cliProcess';
import { seedDataFolder } from '../../bench/seedData';
import { temporaryCopyOf } from '../../src/main/store/durableJsonFile';

/**
 * SIGKILLs a real `calendar-desk serve` process at random moments while concurrent writers create, update
 * and trash records, restarts it on the same folder and checks that every write that was answered 2xx is
 * there, with its values. Only observable behaviour is used (HTTP, files, processes), so the test holds for
 * any persistence design.
 *
 * CRASH_KILLS (default 20), CRASH_WRITERS (default 16) and CRASH_SEED tune it; e.g.
 * `CRASH_KILLS=200 npx vitest run test/store/crash.test.ts` for a longer local run.
 */
const KILLS = Number(process.env.CRASH_KILLS ?? 20);
const WRITERS = Number(process.env.CRASH_WRITERS ?? 16);
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** mulberry32: a seeded PRNG, so that a failing run can be replayed with its CRASH_SEED. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
const random = prng(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

type Kind = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';
/** The field each kind is created and renamed with. */
const NAME_FIELD: Record<Kind, string> = {
  events: 'title',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'name',
  tags: 'name',
};
/** Posts share one id sequence, terms another (as in WordPress). */
const idSpace = (kind: Kind) => (kind === 'categories' || kind === 'tags' ? 'term' : 'post');

/** What the client knows about one record it created (each record is only ever changed by its writer). */
interface Tracked {
  kind: Kind;
  id: number;
  /** The last name acknowledged with a 2xx. */
  name: string;
  /** A rename sent but not answered when the server died: the record may carry either name. */
  pendingName?: string;
  trashed: 'no' | 'yes' | 'maybe';
  venueId?: number;
  categoryIds?: number[];
}

interface Server {
  serve: ServeProcess;
  root: string;
  auth: Record<string, string>;
}

let home: string;
let env: NodeJS.ProcessEnv;
let server: Server | undefined;

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-crash-'));
  env = isolatedEnv(home);
}, 120_000);
afterAll(async () => {
  if (server && server.serve.child.exitCode === null) server.serve.child.kill('SIGKILL');
  await server?.serve.exited;
  await rm(home, { recursive: true, force: true });
});

async function start(dataDir: string): Promise<Server> {
  const serve = await startServe(['--port', '0', '--data', dataDir], env);
  const token = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
  return { serve, root: `${serve.apiRoot}/`, auth: { Authorization: `Bearer ${token}` } };
}

async function call(target: Server, method: string, path: string, body?: unknown) {
  const response = await fetch(`${target.root}${path}`, {
    method,
    headers: { ...target.auth, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(20_000),
  });
  return { status: response.status, text: response.text() };
}

/** Every JSON file of the folder (and its sub-folders, e.g. backups) is complete, parseable JSON. */
async function expectJsonFilesReadable(dir: string): Promise<number> {
  let checked = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) checked += await expectJsonFilesReadable(path);
    else if (entry.name.endsWith('.json') && !entry.name.startsWith('.')) {
      const text = await readFile(path, 'utf8');
      expect(() => JSON.parse(text), `${path} is not valid JSON`).not.toThrow();
      checked += 1;
    }
  }
  return checked;
}

describe('crash safety under a concurrent write load', () => {
  it(
    `loses no acknowledged write across ${KILLS} SIGKILLs (${WRITERS} writers, seed ${SEED})`,
    async () => {
      const dataDir = join(home, 'data');
      const tracked: Tracked[] = [];
      const byId = { post: new Map<number, Tracked>(), term: new Map<number, Tracked>() };
      const unexpected: string[] = [];
      let acknowledged = 0;
      let unanswered = 0;
      let serial = 0;
      /** Records created or changed (or meant to be) since the last check: all of them are checked each round. */
      const touched = new Set<Tracked>();
      let checks = 0;

      /** A created record was acknowledged: its id must be new. */
      const remember = (record: Tracked) => {
        const space = byId[idSpace(record.kind)];
        const earlier = space.get(record.id);
        if (earlier) {
          unexpected.push(
            `id ${record.id} given to ${record.kind} "${record.name}" and ${earlier.kind} "${earlier.name}"`,
          );
        }
        space.set(record.id, record);
        tracked.push(record);
        touched.add(record);
      };

      /** One writer: creates records and changes only its own, one request at a time, until the server dies. */
      async function writer(
        target: Server,
        round: number,
        index: number,
        owned: Tracked[],
        stop: () => boolean,
      ) {
        while (!stop()) {
          const live = (kind: Kind) =>
            owned.filter((record) => record.kind === kind && record.trashed === 'no');
          const roll = random();
          const label = `r${round} w${index} n${++serial}`;
          let request: { method: string; path: string; body?: unknown };
          let onAck: (body: Record<string, unknown> | null) => void;
          if (roll < 0.3) {
            const venue = live('venues').at(-1);
            const category = live('categories').at(-1);
            const day = 1 + Math.floor(random() * 28);
            const title = `Event ${label}`;
            request = {
              method: 'POST',
              path: 'events',
              body: {
                title,
                start_date: `2031-03-${String(day).padStart(2, '0')} 10:00:00`,
                end_date: `2031-03-${String(day).padStart(2, '0')} 11:30:00`,
                ...(venue && random() < 0.5 ? { venue: venue.id } : {}),
                ...(category && random() < 0.5 ? { categories: [category.id] } : {}),
              },
            };
            onAck = (body) => {
              if (!body) return;
              const sent = request.body as { venue?: number; categories?: number[] };
              const record: Tracked = {
                kind: 'events',
                id: body.id as number,
                name: title,
                trashed: 'no',
                venueId: sent.venue,
                categoryIds: sent.categories,
              };
              remember(record);
              owned.push(record);
            };
          } else if (roll < 0.55) {
            const kind = pick(['venues', 'organizers', 'categories', 'tags'] as const);
            const name = `${kind.slice(0, -1)} ${label}`;
            request = { method: 'POST', path: kind, body: { [NAME_FIELD[kind]]: name } };
            onAck = (body) => {
              if (!body) return;
              const record: Tracked = { kind, id: body.id as number, name, trashed: 'no' };
              remember(record);
              owned.push(record);
            };
          } else if (roll < 0.85) {
            const candidates = [...live('events'), ...live('venues'), ...live('organizers'), ...live('tags')];
            if (candidates.length === 0) continue;
            const record = pick(candidates);
            const name = `${record.name.split(' (')[0]} (renamed ${label})`;
            request = {
              method: 'POST',
              path: `${record.kind}/${record.id}`,
              body: { [NAME_FIELD[record.kind]]: name },
            };
            record.pendingName = name;
            touched.add(record);
            onAck = () => {
              record.name = name;
              record.pendingName = undefined;
            };
          } else {
            const candidates = live('events');
            if (candidates.length === 0) continue;
            const record = pick(candidates);
            request = { method: 'DELETE', path: `events/${record.id}` };
            record.trashed = 'maybe';
            touched.add(record);
            onAck = () => {
              record.trashed = 'yes';
            };
          }
          let status: number;
          let text: Promise<string>;
          try {
            ({ status, text } = await call(target, request.method, request.path, request.body));
          } catch {
            // The server died with this request in flight: it may or may not have been applied.
            unanswered += 1;
            return;
          }
          if (status < 200 || status > 299) {
            unexpected.push(
              `${request.method} ${request.path} answered ${status}: ${await text.catch(() => '')}`,
            );
            return;
          }
          acknowledged += 1;
          // A 2xx status line is the server's promise; the body may be cut by the kill (then a new id is unknown).
          const body = await text.then(
            (value) => JSON.parse(value) as Record<string, unknown>,
            () => null,
          );
          onAck(body);
        }
      }

      /** Every acknowledged change is there after the restart; undecided ones are settled by what is there. */
      async function verify(target: Server, records: Iterable<Tracked>) {
        const queue = [...records];
        const worker = async () => {
          for (let record = queue.pop(); record; record = queue.pop()) {
            const { status, text } = await call(target, 'GET', `${record.kind}/${record.id}`);
            const body = JSON.parse(await text) as Record<string, unknown>;
            const where = `${record.kind}/${record.id} "${record.name}"`;
            if (record.kind === 'events' && record.trashed !== 'no') {
              const inTrash = status === 403 && body.code === 'event-no-longer-available';
              if (record.trashed === 'yes' || inTrash) {
                expect(inTrash, `${where} was trashed with a 2xx but reads ${status}`).toBe(true);
                record.trashed = 'yes';
                continue;
              }
              record.trashed = 'no';
            }
            expect(status, `${where}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
            const name = body[NAME_FIELD[record.kind]];
            const allowed = [record.name, ...(record.pendingName ? [record.pendingName] : [])];
            expect(allowed, `${where} reads "${String(name)}"`).toContain(name);
            record.name = name as string;
            record.pendingName = undefined;
            if (record.kind === 'events') {
              expect(body.status).toBe('publish');
              if (record.venueId) expect((body.venue as { id?: number }).id, where).toBe(record.venueId);
              if (record.categoryIds) {
                const ids = (body.categories as { id: number }[]).map((category) => category.id);
                expect(ids, where).toEqual(record.categoryIds);
              }
            }
          }
        };
        await Promise.all(Array.from({ length: 16 }, worker));
      }

      const started = Date.now();
      const restarts: number[] = [];
      server = await start(dataDir);
      for (let round = 1; round <= KILLS; round += 1) {
        const owned = Array.from({ length: WRITERS }, () => [] as Tracked[]);
        // Each writer keeps working on what it created in earlier rounds.
        tracked.forEach((record, at) => owned[at % WRITERS].push(record));
        let dead = false;
        const target = server;
        const writers = owned.map((mine, index) => writer(target, round, index, mine, () => dead));
        // A random moment: sometimes right at the start of the load, mostly somewhere within it.
        const delay = random() < 0.15 ? random() * 20 : 20 + random() * 600;
        await new Promise((resolve) => setTimeout(resolve, delay));
        target.serve.child.kill('SIGKILL');
        await target.serve.exited;
        dead = true;
        await Promise.all(writers);
        expect(unexpected).toEqual([]);

        // What the crash left must be readable as it is, before anything repairs it.
        await expectJsonFilesReadable(dataDir);
        const restartAt = Date.now();
        server = await start(dataDir);
        restarts.push(Date.now() - restartAt);
        // A snapshot the kill interrupted is removed by the restart: only the new server's own may be there.
        const ownPid = server.serve.child.pid;
        const leftBehind = (await readdir(dataDir)).filter((name) => {
          const copy = temporaryCopyOf(name);
          return copy !== null && copy.pid !== ownPid;
        });
        expect(leftBehind, 'temporary copies left by killed servers').toEqual([]);
        // This round's records every round, everything every 10th round (and at the end), a sample otherwise:
        // the test stays linear for long runs, and a lost record can never come back unseen.
        const sample =
          round % 10 === 0
            ? tracked
            : Array.from({ length: Math.min(200, tracked.length) }, () => pick(tracked));
        const due = new Set([...touched, ...sample]);
        touched.clear();
        checks += due.size;
        await verify(server, due);
      }

      // A clean stop, then one more start: nothing was lost on the way, and the data file holds everything.
      server.serve.child.kill('SIGTERM');
      expect(await server.serve.exited).toBe(0);
      await expectJsonFilesReadable(dataDir);
      server = await start(dataDir);
      await verify(server, tracked);
      checks += tracked.length;
      // New records never reuse an id, not even one of a write that was never answered.
      const fresh = await call(server, 'POST', 'events', {
        title: 'After the crashes',
        start_date: '2031-04-01 10:00:00',
        end_date: '2031-04-01 11:00:00',
      });
      expect(fresh.status).toBe(201);
      const freshId = (JSON.parse(await fresh.text) as { id: number }).id;
      expect(byId.post.has(freshId)).toBe(false);
      server.serve.child.kill('SIGTERM');
      expect(await server.serve.exited).toBe(0);

      const disk = JSON.parse(await readFile(join(dataDir, 'calendar.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      const idsOf = (...names: string[]) =>
        names
          .flatMap((name) => (Array.isArray(disk[name]) ? (disk[name] as { id: number }[]) : []))
          .map((record) => record.id);
      const onDisk = { post: idsOf('events', 'venues', 'organizers'), term: idsOf('terms') };
      for (const space of ['post', 'term'] as const) {
        const ids = new Set(onDisk[space]);
        expect(ids.size, `${space} ids in calendar.json are unique`).toBe(onDisk[space].length);
        const missing = [...byId[space].keys()].filter((id) => !ids.has(id));
        expect(missing, `acknowledged ${space}s missing from calendar.json`).toEqual([]);
      }

      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const slowest = Math.max(...restarts);
      console.info(
        `crash test (seed ${SEED}): ${KILLS} SIGKILLs in ${seconds} s, ${acknowledged} acknowledged writes ` +
          `(${tracked.length} records, ${checks} reads after restarts) all found again, ` +
          `${unanswered} requests cut by a kill; ` +
          `restart after a kill took at most ${slowest} ms`,
      );
      expect(acknowledged).toBeGreaterThan(KILLS);
    },
    Math.max(180_000, KILLS * 15_000),
  );
});

describe('a kill while the journal is folded into calendar.json', () => {
  it('leaves an unfinished snapshot that the next start removes, losing nothing', async () => {
    const dataDir = join(home, 'big');
    // Big enough that writing the snapshot takes a while: the kill lands in the middle of it.
    await seedDataFolder(dataDir, { events: 20_000, seed: 11 });
    server = await start(dataDir);
    const created = await call(server, 'POST', 'events', {
      title: 'Saved before the kill',
      start_date: '2031-05-01 10:00:00',
      end_date: '2031-05-01 11:00:00',
    });
    expect(created.status).toBe(201);
    const id = (JSON.parse(await created.text) as { id: number }).id;

    // A clean stop folds the journal into calendar.json through a temporary copy: kill it as that appears.
    const victim = server.serve;
    let snapshot = '';
    const watcher = watch(dataDir, (_event, name) => {
      const copy = name ? temporaryCopyOf(name) : null;
      if (snapshot || copy?.of !== 'calendar.json' || copy.pid !== victim.child.pid) return;
      snapshot = name!;
      victim.child.kill('SIGKILL');
    });
    try {
      victim.child.kill('SIGTERM');
      await victim.exited;
    } finally {
      watcher.close();
    }
    expect(victim.child.signalCode, 'killed while writing the snapshot').toBe('SIGKILL');
    expect(await readdir(dataDir), 'what the kill left').toContain(snapshot);

    server = await start(dataDir);
    expect(await readdir(dataDir)).not.toContain(snapshot);
    const read = await call(server, 'GET', `events/${id}`);
    expect(read.status).toBe(200);
    expect((JSON.parse(await read.text) as { title: string }).title).toBe('Saved before the kill');
    server.serve.child.kill('SIGTERM');
    expect(await server.serve.exited).toBe(0);
  }, 120_000);
});
