import { afterAll, beforeAll, expect, it } from 'vitest';
import ICAL from 'ical.js';
import {
  describeWithPeer,
  PEER_START_TIMEOUT_MS,
  startWordPressPeer,
  type WordPressPeer,
} from '../helpers/wordpressPeer';
import { websiteSubscribeLinks } from '../../src/shared/subscribeLinks';

const summaries = (text: string) =>
  new ICAL.Component(ICAL.parse(text))
    .getAllSubcomponents('vevent')
    .map((vevent) => String(vevent.getFirstPropertyValue('summary')))
    .sort();

describeWithPeer("the website's own subscribe links (shown on the Publish screen)", () => {
  let peer: WordPressPeer;
  beforeAll(async () => {
    peer = await startWordPressPeer();
  }, PEER_START_TIMEOUT_MS);
  afterAll(() => peer?.stop());

  it('are the addresses where the real plugin serves its iCalendar feed, whole and per category', async () => {
    const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const category = await peer.api('tribe/events/v1/categories', {
      method: 'POST',
      json: { name: 'Choir Nights', slug: 'choir-nights' },
    });
    expect(category.status, JSON.stringify(category.body)).toBe(201);
    for (const [title, categories] of [
      ['Choir concert', [category.body.id]],
      ['Open day', []],
    ] as const) {
      const created = await peer.api('tribe/events/v1/events', {
        method: 'POST',
        json: {
          title,
          status: 'publish',
          start_date: `${day} 18:00:00`,
          end_date: `${day} 20:00:00`,
          categories,
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const links = websiteSubscribeLinks(peer.root, [{ name: 'Choir Nights', slug: 'choir-nights' }])!;
    expect(links.site).toBe(peer.site);
    expect(links.calendar.ical).toBe(`${peer.site}/events/?ical=1`);

    const whole = await fetch(links.calendar.ical);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(summaries(await whole.text())).toEqual(['Choir concert', 'Open day']);

    const perCategory = await fetch(links.categories[0]!.ical);
    expect(perCategory.status).toBe(200);
    expect(summaries(await perCategory.text())).toEqual(['Choir concert']);

    // Calendar apps get the same address as webcal://; Google Calendar gets it through its subscribe page.
    expect(links.calendar.webcal).toBe(links.calendar.ical.replace(/^http:/, 'webcal:'));
    expect(new URL(links.calendar.google).searchParams.get('cid')).toBe(links.calendar.webcal);
  });
});
