import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { isolatedEnv } from '../cli/cliProcess';
import type { WordPressPeer } from '../helpers/wordpressPeer';

/**
 * A local calendar in its own data folder, written through the real API by a server that is then stopped,
 * so the CLI owns the folder (as when a user runs `calendar-desk sync`).
 */
export async function localCalendar(fill: (local: TestServer) => Promise<unknown>): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-wp-local-'));
  const local = await startTestServer({ dataDir });
  try {
    await fill(local);
  } finally {
    await local.close();
  }
  return dataDir;
}

/** Creates events through the local API (201 each), `daysFromNow` spreading them over the coming weeks. */
export async function addEvents(
  local: TestServer,
  titles: string[],
  extra: (index: number) => Record<string, unknown> = () => ({}),
): Promise<number[]> {
  const ids: number[] = [];
  for (const [index, title] of titles.entries()) {
    const answer = await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody(title, 3 + (index % 40), extra(index)),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    ids.push(answer.body.id);
  }
  return ids;
}

/** `calendar-desk sync` arguments for the peer, as the given account (default: the administrator). */
export function syncArgs(
  peer: WordPressPeer,
  dataDir: string,
  account: { user: string; password: string } = peer.admin,
  ...more: string[]
): string[] {
  return [
    'sync',
    '--data',
    dataDir,
    '--remote',
    peer.root,
    '--namespace',
    'tribe/events/v1',
    '--user',
    account.user,
    '--password',
    account.password,
    ...more,
  ];
}

/** A throwaway home for CLI runs, so nothing reaches the user's real calendar. */
export async function cliEnv(): Promise<NodeJS.ProcessEnv> {
  return isolatedEnv(await mkdtemp(join(tmpdir(), 'calendar-desk-wp-home-')));
}

/** Every event of the peer, drafts and hidden ones included (through wp/v2, which lists them all). */
export async function peerEvents(
  peer: WordPressPeer,
): Promise<{ id: number; title: string; status: string }[]> {
  const events: { id: number; title: string; status: string }[] = [];
  for (let page = 1; ; page++) {
    const answer = await peer.api(
      `wp/v2/tribe_events?context=edit&status=any&per_page=100&page=${page}&_fields=id,title,status`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    for (const event of answer.body)
      events.push({ id: event.id, title: event.title.raw, status: event.status });
    if (page >= Number(answer.headers.get('x-wp-totalpages') ?? 1)) return events;
  }
}
