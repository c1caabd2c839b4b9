import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  emptyEventForm,
  endFollowingStart,
  eventBody,
  formErrors,
  formFromEvent,
} from '../../src/renderer/src/calendar/eventForm';
import type { EventResponse } from '../../src/renderer/src/api/records';

/** The editor's form against the real API: what it sends is accepted and round-trips without spurious changes. */
let server: TestServer;
let stored: EventResponse;

beforeAll(async () => {
  server = await startTestServer({ timezone: 'Europe/Rome' });
  const venue = await server.api('venues', { method: 'POST', auth: server.admin, json: { venue: 'Hall' } });
  const organizer = await server.api('organizers', {
    method: 'POST',
    auth: server.admin,
    json: { organizer: 'Ann' },
  });
  const created = await server.api('events', {
    method: 'POST',
    auth: server.admin,
    json: {
      title: 'Gala',
      start_date: '2026-12-31 21:00:00',
      end_date: '2027-01-01 02:00:00',
      venue: venue.body.id,
      organizer: [organizer.body.id],
      categories: ['Music'],
      tags: ['night'],
      cost: '25',
    },
  });
  stored = (await server.api(`events/${created.body.id}?context=edit`, { auth: server.admin })).body;
});
afterAll(() => server.close());

describe('event form', () => {
  it('reads an API event into the form and back without inventing changes', () => {
    const form = formFromEvent(stored);
    expect(form).toMatchObject({
      title: 'Gala',
      startDate: '2026-12-31',
      startTime: '21:00',
      endDate: '2027-01-01',
      endTime: '02:00',
      timezone: 'Europe/Rome',
      // The API formats the cost with its currency symbol; the input holds what the user typed.
      cost: '25',
      // The API answers the event's own page when it has no website: not the user's input.
      website: '',
    });
    expect(form.organizerIds).toHaveLength(1);
    expect(eventBody(form, formFromEvent(stored))).toEqual({});
  });

  it('shows a cost without numbers (Free) as it is', async () => {
    const free = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: { title: 'Open day', start_date: '2026-09-01 10:00', end_date: '2026-09-01 12:00', cost: 'Free' },
    });
    expect(formFromEvent(free.body).cost).toBe('Free');
  });

  it('sends only what changed, and the dates always together', async () => {
    const original = formFromEvent(stored);
    expect(eventBody({ ...original, title: 'New Year Gala' }, original)).toEqual({ title: 'New Year Gala' });
    const moved = eventBody({ ...original, startTime: '20:00' }, original);
    expect(moved).toEqual({
      start_date: '2026-12-31 20:00:00',
      end_date: '2027-01-01 02:00:00',
      all_day: false,
    });
    expect(eventBody({ ...original, venueId: null }, original)).toEqual({ venue: 0 });

    const answer = await server.api(`events/${stored.id}`, {
      method: 'POST',
      auth: server.admin,
      json: moved,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ start_date: '2026-12-31 20:00:00', title: 'Gala', cost: '$25' });
  });

  it('creates with what the user filled in; the API accepts it as is', async () => {
    const form = {
      ...emptyEventForm({ timezone: 'America/New_York' }),
      title: 'Picnic',
      startDate: '2026-06-01',
      endDate: '2026-06-02',
      allDay: true,
      tagIds: [stored.tags[0].id],
    };
    const body = eventBody(form);
    expect(body).not.toHaveProperty('venue');
    expect(body).not.toHaveProperty('website');
    expect(body).toMatchObject({
      start_date: '2026-06-01 00:00:00',
      end_date: '2026-06-02 23:59:59',
      all_day: true,
    });
    const created = await server.api('events', { method: 'POST', auth: server.admin, json: body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Picnic', all_day: true, timezone: 'America/New_York' });
    expect(created.body.tags).toEqual([expect.objectContaining({ name: 'night' })]);
  });

  it('keeps the cost as typed and the currency chosen, through the edit answer and back', async () => {
    const typed = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody({
        ...emptyEventForm({ timezone: 'UTC' }),
        title: 'Theatre',
        startDate: '2026-10-01',
        endDate: '2026-10-01',
        cost: '20€ / 10€ reduced',
      }),
    });
    expect(typed.body.cost).toBe('10€ – 20€');
    const edit = (await server.api(`events/${typed.body.id}?context=edit`, { auth: server.admin })).body;
    const form = formFromEvent(edit);
    expect(form).toMatchObject({
      cost: '20€ / 10€ reduced',
      currencySymbol: '€',
      currencyPosition: 'postfix',
    });
    expect(eventBody(form, formFromEvent(edit))).toEqual({});

    // Retyping a bare amount keeps the currency shown; a text naming another currency is left to the API.
    expect(eventBody({ ...form, cost: '25' }, form)).toEqual({
      cost: '25',
      currency_symbol: '€',
      currency_position: 'postfix',
    });
    expect(eventBody({ ...form, cost: '30 kr' }, form)).toEqual({ cost: '30 kr' });
    const retyped = await server.api(`events/${typed.body.id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: eventBody({ ...form, cost: '25' }, form),
    });
    expect(retyped.body.cost).toBe('25€');

    // Choosing a currency for a bare amount; emptying it goes back to the site default.
    const bare = { ...form, cost: '25' };
    const pounds = eventBody({ ...bare, currencySymbol: '£', currencyPosition: 'prefix' }, bare);
    expect(pounds).toEqual({ currency_symbol: '£', currency_position: 'prefix' });
    const answer = await server.api(`events/${typed.body.id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: pounds,
    });
    expect(answer.body.cost).toBe('£25');
    const none = eventBody({ ...bare, currencySymbol: '', currencyPosition: '' }, bare);
    const reset = await server.api(`events/${typed.body.id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: none,
    });
    expect(reset.body.cost).toBe('$25');
  });

  it('saves a new cost of an event whose cost text names a currency the API refuses as a symbol', async () => {
    // `10 Schweizerfranken`: the API records the currency read from the text (too long to be sent as a
    // symbol). Changing the amount must not send that currency back as if the user had chosen it (a 400).
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody({
        ...emptyEventForm({ timezone: 'UTC' }),
        title: 'Swiss',
        startDate: '2026-10-02',
        endDate: '2026-10-02',
        cost: '10 Schweizerfranken',
      }),
    });
    expect(created.status).toBe(201);
    const edit = (await server.api(`events/${created.body.id}?context=edit`, { auth: server.admin })).body;
    const form = formFromEvent(edit);
    const saved = await server.api(`events/${created.body.id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: eventBody({ ...form, cost: '12 Schweizerfranken' }, form),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.cost_details).toMatchObject({ currency_symbol: 'Schweizerfranken', values: ['12'] });
  });

  it('puts each API validation message on the field it is about', async () => {
    const refused = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody({
        ...emptyEventForm({ timezone: 'UTC' }),
        title: 'x',
        startDate: '2026-01-01',
        endDate: '2026-01-01',
        website: 'nope',
      }),
    });
    expect(refused.status).toBe(400);
    const errors = formErrors(refused.body.data.params, (param) => `bad ${param}`);
    expect(errors).toEqual({ website: 'bad website' });
    expect(formErrors({ currency_position: 'bad side', currency_symbol: 'bad symbol' })).toEqual({
      currencyPosition: 'bad side',
      currencySymbol: 'bad symbol',
    });
    expect(formErrors({ start_date: 'Start must be a date.', mystery: 'odd' })).toEqual({
      startDate: 'Start must be a date.',
      form: 'odd',
    });
  });
});

describe('moving the start keeps the length', () => {
  const concert = emptyEventForm({
    timezone: 'Europe/Rome',
    startDate: '2026-12-15',
    startTime: '19:00',
    endDate: '2026-12-15',
    endTime: '21:00',
  });
  const before = { startDate: concert.startDate, startTime: concert.startTime };

  it('a later day moves the end by as much, across months', () => {
    expect(endFollowingStart(before, { ...concert, startDate: '2027-01-03' })).toEqual({
      endDate: '2027-01-03',
      endTime: '21:00',
    });
  });

  it('a later time moves the end past midnight when it must', () => {
    expect(endFollowingStart(before, { ...concert, startTime: '23:30' })).toEqual({
      endDate: '2026-12-16',
      endTime: '01:30',
    });
  });

  it('a multi-day all-day event keeps its days', () => {
    const festival = { ...concert, allDay: true, endDate: '2026-12-17' };
    expect(endFollowingStart(before, { ...festival, startDate: '2026-12-20' })).toMatchObject({
      endDate: '2026-12-22',
    });
  });

  it('changes nothing when the start cannot be read or the end was already before it', () => {
    expect(endFollowingStart(before, { ...concert, startDate: '' })).toBeNull();
    expect(endFollowingStart({ startDate: '', startTime: '19:00' }, concert)).toBeNull();
    const backwards = { ...concert, endDate: '2026-12-14' };
    expect(endFollowingStart(before, { ...backwards, startDate: '2026-12-16' })).toBeNull();
  });
});
