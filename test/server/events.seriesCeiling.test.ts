import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { MATERIALISED_AT_ONCE } from '../../src/main/core/recurrence/series';
import { at } from './events.helpers';

// Issue 26, item 4: one series never makes more than MATERIALISED_AT_ONCE events in one store change (one
// journal batch); a longer horizon or a denser rule is made that many at a time by the extension.

const START = Date.parse('2027-03-01T09:00:00Z');

describe('how many events one series makes at once', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ clock: () => new Date(START) });
  });
  afterEach(() => server.close());

  it(`makes at most ${MATERIALISED_AT_ONCE} events of a series in one change; the extension makes the rest`, async () => {
    const settings = (json: Record<string, unknown>) =>
      server.api(`${server.engine.apiRoot}calendar-desk/v1/settings`, {
        method: 'PUT',
        auth: server.admin,
        json,
      });
    // Ten years ahead: an endless daily series reaches some 3,650 days.
    expect((await settings({ recurrence_horizon_months: 120 })).status).toBe(200);
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: at('Daily', '2027-03-02 08:00:00', '2027-03-02 09:00:00', { recurrence: ['RRULE:FREQ=DAILY'] }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const store = server.engine.store;
    const seriesSize = () => [...store.events.values()].filter((event) => event.recurrenceId).length;
    expect(seriesSize()).toBe(1 + MATERIALISED_AT_ONCE);
    // Each extension (here the one a change of the horizon runs) makes at most as many more, in date order.
    expect((await settings({ recurrence_horizon_months: 120 })).status).toBe(200);
    expect(seriesSize()).toBe(1 + 2 * MATERIALISED_AT_ONCE);
    for (let i = 0; i < 3; i++) expect((await settings({ recurrence_horizon_months: 120 })).status).toBe(200);
    const starts = [...store.events.values()]
      .filter((event) => event.recurrenceId)
      .map((event) => event.startLocal)
      .sort();
    // 2027-03-02 to 2037-03-01 (the horizon, ten years after 1 March 2027 09:00 UTC), every day once.
    expect(starts.length).toBe(3653);
    expect(new Set(starts).size).toBe(starts.length);
    expect(starts.at(-1)).toBe('2037-03-01 08:00:00');
    expect(store.events.get(created.body.id)!.horizonLocal).toMatch(/^2037-03-01/);
  });

  it('counts the events the extension makes for a contributor in their budget; past it the series waits', async () => {
    let now = START;
    await server.close();
    server = await startTestServer({ clock: () => new Date(now) });
    const settings = (json: Record<string, unknown>) =>
      server.api(`${server.engine.apiRoot}calendar-desk/v1/settings`, {
        method: 'PUT',
        auth: server.admin,
        json,
      });
    const contributor = await server.userHeaders('connie', 'contributor');
    expect(
      (await settings({ recurrence_horizon_months: 120, write_budget_occurrences_per_hour: 1500 })).status,
    ).toBe(200);
    const created = await server.api('events', {
      method: 'POST',
      auth: contributor,
      json: at('Daily', '2027-03-02 08:00:00', '2027-03-02 09:00:00', { recurrence: ['RRULE:FREQ=DAILY'] }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const store = server.engine.store;
    const seriesSize = () => [...store.events.values()].filter((event) => event.recurrenceId).length;
    expect(seriesSize()).toBe(1 + MATERIALISED_AT_ONCE);
    // 1,000 of the hour's 1,500 are spent: the next 1,000 wait.
    expect((await settings({ recurrence_horizon_months: 120 })).status).toBe(200);
    expect(seriesSize()).toBe(1 + MATERIALISED_AT_ONCE);
    now += 3600_000;
    expect((await settings({ recurrence_horizon_months: 120 })).status).toBe(200);
    expect(seriesSize()).toBe(1 + 2 * MATERIALISED_AT_ONCE);
  });
});
