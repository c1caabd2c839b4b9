import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithPeer,
  PEER_START_TIMEOUT_MS,
  startWordPressPeer,
  type WordPressPeer,
} from '../helpers/wordpressPeer';
import { startTestServer } from '../helpers/server';
import { ensureBuilt, runCli } from '../cli/cliProcess';
import { addEvents, cliEnv, localCalendar, peerEvents, syncArgs } from './localCalendar';

/** What `calendar-desk sync` tells a person, read as they would: exit status and the words on the terminal. */
describeWithPeer('calendar-desk sync against the real site: what the user reads', () => {
  let peer: WordPressPeer;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    [peer] = await Promise.all([startWordPressPeer(), ensureBuilt()]);
    env = await cliEnv();
    dataDir = await localCalendar((local) =>
      addEvents(local, ['Jazz night', 'Book fair'], (index) => ({
        excerpt: 'Short',
        tags: [index ? 'books' : 'jazz'],
      })),
    );
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await peer?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (env?.HOME) await rm(env.HOME, { recursive: true, force: true });
  });

  const expectOneLine = (stderr: string) => {
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toMatch(/<\/?[a-z]+>/i);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  };

  it('a wrong application password, and a user the site does not know: exit 1, the reason in words', async () => {
    const wrong = await runCli(
      syncArgs(peer, dataDir, { user: 'admin', password: 'abcd efgh ijkl mnop qrst uvwx' }),
      env,
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe(
      'calendar-desk: The remote refused the credentials (The provided password is an invalid application password.). ' +
        'Give an application password of "admin" (on the site: Users → Profile → Application Passwords), not the password used to log in.',
    );
    expectOneLine(wrong.stderr);

    const unknown = await runCli(syncArgs(peer, dataDir, { user: 'nobody', password: 'abcd efgh' }), env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe(
      'calendar-desk: The remote refused the credentials (Error: Unknown username. Check again or try your email address.). ' +
        'The site has no user "nobody": give the login name of a WordPress account (--user).',
    );
    expectOneLine(unknown.stderr);
  }, 60_000);

  it('without --namespace, finds The Events Calendar from the site address alone; a wrong one is named', async () => {
    // What a volunteer types: the site's address, no REST root, no namespace.
    const args = syncArgs(peer, dataDir, peer.admin, '--dry-run');
    args.splice(args.indexOf('--namespace'), 2);
    args[args.indexOf('--remote') + 1] = peer.root.replace(/wp-json\/$/, '');
    const found = await runCli(args, env);
    expect(found.stderr).toBe('');
    expect(found.code).toBe(0);
    expect(found.stdout).toMatch(/^Dry run: nothing was changed\./m);
    expect(found.stdout).toMatch(/create\s+event \d+ "Jazz night"/);
    expect(await peerEvents(peer)).toEqual([]);

    const wrong = syncArgs(peer, dataDir);
    wrong[wrong.indexOf('--namespace') + 1] = 'cal/events/v1';
    const result = await runCli(wrong, env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `calendar-desk: ${peer.root} does not serve the cal/events/v1 namespace. ` +
        'It is a WordPress site with The Events Calendar: use --namespace tribe/events/v1.',
    );
  }, 60_000);

  it('an author, who may not create tags there: refused before anything is sent, naming tags and why', async () => {
    const author = await peer.createUser('arthur', 'author');
    const result = await runCli(syncArgs(peer, dataDir, author), env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'calendar-desk: The remote account arthur (author) may not create or change tags on the site (it lacks ' +
        'the manage_categories capability), so 2 tags of this calendar would fail, and the events that use them ' +
        "with them. Nothing was sent. Sync with an editor or administrator account, or ask the site's " +
        'administrator to give this account that permission.',
    );
    expect(await peerEvents(peer)).toEqual([]);
    expect((await peer.api('tribe/events/v1/tags?hide_empty=false')).body.tags ?? []).toEqual([]);
    // The dry run says the same before showing a plan that cannot be carried out.
    const dry = await runCli(syncArgs(peer, dataDir, author, '--dry-run'), env);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toMatch(/may not create or change tags/);
  }, 60_000);

  it('--policy skip reports the conflict as skipped, not as waiting for a decision', async () => {
    const first = await runCli(syncArgs(peer, dataDir), env);
    expect(first.code).toBe(0);
    const jazz = (await peerEvents(peer)).find((event) => event.title === 'Jazz night')!;
    const remoteEdit = await peer.api(`tribe/events/v1/events/${jazz.id}`, {
      method: 'POST',
      json: { title: 'Jazz night (theirs)' },
    });
    expect(remoteEdit.status).toBe(200);
    const local = await startTestServer({ dataDir });
    const mine = [...local.engine.store.events.values()].find((event) => event.title === 'Jazz night')!;
    await local.api(`events/${mine.id}`, {
      method: 'POST',
      auth: local.admin,
      json: { title: 'Jazz night (ours)' },
    });
    await local.close();

    const asked = await runCli(syncArgs(peer, dataDir), env);
    expect(asked.code).toBe(2);
    expect(asked.stdout).toMatch(
      /^Conflicts \(left untouched; decide with --policy local-wins, remote-wins or skip\):$/m,
    );
    const skipped = await runCli(syncArgs(peer, dataDir, peer.admin, '--policy', 'skip'), env);
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toMatch(
      /^Conflicts skipped as --policy skip asks \(left untouched; to settle them, run with --policy local-wins or remote-wins\):$/m,
    );
    expect(skipped.stdout).not.toMatch(/decide with --policy/);
    expect(skipped.stdout).toMatch(/^ {2}event \d+ "Jazz night \(ours\)": changed here and on the remote$/m);
  }, 120_000);
});
