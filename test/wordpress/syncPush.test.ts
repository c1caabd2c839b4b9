import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithPeer, PEER_START_TIMEOUT_MS } from '../helpers/wordpressPeer';
import {
  buildCalendar,
  pngBytes,
  remoteIdOf,
  sitePosts,
  startWordPressPair,
  type Calendar,
  type WordPressPair,
} from './wordpressSync';

/**
 * A realistic calendar pushed to the real WordPress + The Events Calendar site, then read back from the site
 * itself: through the plugin's API (`tribe/events/v1`) and through WordPress' own (`wp/v2 … context=edit`, what is
 * stored). The tests run in order on one site: each builds on what the previous one pushed.
 */
describeWithPeer('sync to the real WordPress + The Events Calendar site', () => {
  let pair: WordPressPair;
  let calendar: Calendar;
  beforeAll(async () => {
    pair = await startWordPressPair();
    calendar = await buildCalendar(pair);
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await pair?.stop();
  });

  const tribe = async (path: string) => {
    const answer = await pair.site.api(`tribe/events/v1/${path}`);
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body;
  };
  const stored = async (type: string, id: number) => {
    const answer = await pair.site.api(`wp/v2/${type}/${id}?context=edit`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  const siteId = (kind: string, localId: number) => remoteIdOf(pair, kind, localId);

  it('the first sync creates every record and uploads the picture once', async () => {
    const report = await pair.sync();
    expect(report.failures).toEqual([]);
    // 3 categories, 2 tags, 2 venues, 2 organizers, 5 events.
    expect(report.summary).toMatchObject({ created: 14, uploaded: 1, failed: 0, conflicts: 0 });
  });

  describe('what the site stores', () => {
    it('events: instants and zones, all-day and multi-day, links, terms with parents, cost, website, flags, status, picture, raw description', async () => {
      const concert = await tribe(`events/${siteId('event', calendar.concert)}`);
      expect(concert).toMatchObject({
        status: 'publish',
        start_date: '2027-03-12 20:00:00',
        end_date: '2027-03-12 23:00:00',
        utc_start_date: '2027-03-12 19:00:00',
        utc_end_date: '2027-03-12 22:00:00',
        timezone: 'Europe/Paris',
        all_day: false,
        cost: expect.stringContaining('15'),
        cost_details: { values: ['15'] },
        website: 'https://tickets.example.org/jazz',
        featured: true,
        sticky: false,
        hide_from_listings: false,
        show_map: true,
        venue: { id: siteId('venue', calendar.hall) },
        image: { id: expect.any(Number) },
      });
      expect(concert.organizer.map((organizer: { id: number }) => organizer.id).sort()).toEqual(
        [siteId('organizer', calendar.choir), siteId('organizer', calendar.festival)].sort(),
      );
      expect(concert.categories).toEqual([
        expect.objectContaining({ name: 'Jazz', parent: siteId('category', calendar.music) }),
      ]);
      expect(concert.tags).toEqual([expect.objectContaining({ name: 'Family' })]);
      const concertStored = await stored('tribe_events', concert.id);
      // What WordPress stores is what was written: every paragraph, every entity as the local API keeps it.
      expect(concertStored.content.raw).toBe(
        (await pair.local.api(`events/${calendar.concert}`, { auth: pair.local.admin })).body.description,
      );
      expect(concertStored.content.raw).toContain('<ul>\n<li>Bar</li>');
      expect(concertStored.title.raw).toBe('Jazz & Swing Night');
      expect(concertStored.excerpt.raw).toBe('Jazz in the hall');
      expect(concertStored.meta).toMatchObject({
        // A bare amount goes with the currency it is shown in here (the plugin reads the currency from the text).
        _EventCost: '$15',
        _EventURL: 'https://tickets.example.org/jazz',
      });

      const marathon = await tribe(`events/${siteId('event', calendar.marathon)}`);
      expect(marathon).toMatchObject({
        start_date: '2027-05-01 07:30:00',
        end_date: '2027-05-03 18:00:00',
        utc_start_date: '2027-05-01 11:30:00',
        utc_end_date: '2027-05-03 22:00:00',
        timezone: 'America/New_York',
        cost: 'Free',
        sticky: true,
        venue: { id: siteId('venue', calendar.park) },
        organizer: [{ id: siteId('organizer', calendar.festival) }],
      });
      expect(
        marathon.categories.map((term: { name: string; parent: number }) => [term.name, term.parent]),
      ).toEqual([
        ['Music', 0],
        ['Theatre', 0],
      ]);
      expect((await stored('tribe_events', marathon.id)).content.raw).toBe(
        'Runners from all over the world.',
      );

      const fair = await tribe(`events/${siteId('event', calendar.fair)}`);
      expect(fair).toMatchObject({
        all_day: true,
        start_date: '2027-04-02 00:00:00',
        end_date: '2027-04-02 23:59:59',
        utc_start_date: '2027-04-01 15:00:00',
        timezone: 'Asia/Tokyo',
        tags: [expect.objectContaining({ name: 'Outdoor' })],
      });

      const rehearsal = await stored('tribe_events', siteId('event', calendar.rehearsal));
      expect(rehearsal).toMatchObject({ status: 'draft', title: { raw: 'Dress rehearsal' } });
      expect(rehearsal.tribe_events_cat).toEqual([siteId('category', calendar.theatre)]);
      const secret = await tribe(`events/${siteId('event', calendar.secret)}`);
      expect(secret).toMatchObject({ hide_from_listings: true, status: 'publish' });
    });

    it('categories and tags: the child under its parent', async () => {
      const categories = await tribe('categories?hide_empty=false&per_page=50');
      const byName = Object.fromEntries(
        categories.categories.map((term: { name: string }) => [term.name, term]),
      );
      expect(byName.Jazz).toMatchObject({ parent: byName.Music.id, slug: 'jazz' });
      expect(byName.Music).toMatchObject({ parent: 0, description: 'Concerts and gigs' });
      const tags = await tribe('tags?hide_empty=false&per_page=50');
      expect(tags.tags.map((term: { name: string }) => term.name).sort()).toEqual(['Family', 'Outdoor']);
    });

    it('venues: full addresses, the map flags as sent, the picture', async () => {
      const hall = await tribe(`venues/${siteId('venue', calendar.hall)}`);
      expect(hall).toMatchObject({
        venue: 'Town Hall',
        address: '1 Market Square',
        city: 'Lyon',
        country: 'France',
        province: 'Rhône',
        zip: '69001',
        phone: '+33 4 00 00 00 00',
        website: 'https://townhall.example.org/',
        show_map: true,
        show_map_link: false,
        image: { id: expect.any(Number), extension: 'png', width: 64, height: 48 },
      });
      const park = await tribe(`venues/${siteId('venue', calendar.park)}`);
      expect(park).toMatchObject({
        venue: 'Central Park',
        address: '59th St',
        city: 'New York',
        state: 'NY',
        country: 'United States',
        zip: '10019',
        show_map: false,
        show_map_link: true,
        description: '<p>The big park.</p>',
      });
      // The plugin leaves out what a venue does not have.
      expect(park.image ?? false).toBe(false);
      const hallStored = await stored('tribe_venue', hall.id);
      expect(hallStored.meta).toMatchObject({
        _VenueShowMap: true,
        _VenueShowMapLink: false,
        _VenueCity: 'Lyon',
      });
      expect(hallStored.featured_media).toBe(hall.image.id);
      expect((await stored('tribe_venue', park.id)).meta).toMatchObject({
        _VenueShowMap: false,
        _VenueShowMapLink: true,
      });
    });

    it('organizers: contact details and the picture', async () => {
      const choir = await tribe(`organizers/${siteId('organizer', calendar.choir)}`);
      expect(choir).toMatchObject({
        organizer: 'City Choir',
        email: 'choir@example.org',
        phone: '+33 1 23 45 67 89',
        website: 'https://choir.example.org/',
        description: '<p>Singing since 1901.</p>',
        image: { id: expect.any(Number), extension: 'png' },
      });
      expect((await stored('tribe_organizer', choir.id)).featured_media).toBe(choir.image.id);
      const team = await tribe(`organizers/${siteId('organizer', calendar.festival)}`);
      expect(team).toMatchObject({ organizer: 'Festival Team', email: 'team@example.org' });
    });

    it('the picture: one media item, the bytes of the file, shown by the event, the venue and the organizer', async () => {
      const media = await pair.site.api('wp/v2/media?context=edit&per_page=100');
      expect(media.body).toHaveLength(1);
      const [item] = media.body;
      expect(item).toMatchObject({ mime_type: 'image/png', media_details: { width: 64, height: 48 } });
      const served = await fetch(item.source_url);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(pngBytes(64, 48));
      const concert = await tribe(`events/${siteId('event', calendar.concert)}`);
      expect(concert.image).toMatchObject({ id: item.id, url: item.source_url });
      expect((await stored('tribe_events', concert.id)).featured_media).toBe(item.id);
      expect((await tribe(`venues/${siteId('venue', calendar.hall)}`)).image.id).toBe(item.id);
      expect((await tribe(`organizers/${siteId('organizer', calendar.choir)}`)).image.id).toBe(item.id);
    });
  });

  it('a second and a third sync change nothing: no operation, no conflict, no new picture', async () => {
    for (let run = 0; run < 2; run++) {
      const again = await pair.sync();
      expect(again.operations).toEqual([]);
      expect(again.conflicts).toEqual([]);
      expect(again.summary).toMatchObject({ created: 0, updated: 0, uploaded: 0, failed: 0 });
    }
    expect((await pair.site.api('wp/v2/media?per_page=100')).body).toHaveLength(1);
    expect(await sitePosts(pair.site, 'tribe_events')).toHaveLength(5);
    expect(await sitePosts(pair.site, 'tribe_venue')).toHaveLength(2);
  });

  it('an event hidden from listings is read by its id: local-wins never makes another copy', async () => {
    const listed = await tribe('events?start_date=1900-01-01&end_date=2200-01-01&per_page=50');
    expect(listed.events.map((event: { title: string }) => event.title)).not.toContain(
      'Members-only preview',
    );
    for (let run = 0; run < 2; run++) {
      const report = await pair.sync({ policy: 'local-wins' });
      expect(report.operations).toEqual([]);
    }
    const copies = (await sitePosts(pair.site, 'tribe_events')).filter((post) =>
      String(post.title.raw).startsWith('Members-only preview'),
    );
    expect(copies.map((post) => post.id)).toEqual([siteId('event', calendar.secret)]);
    expect((await tribe(`events/${siteId('event', calendar.secret)}`)).hide_from_listings).toBe(true);
  });

  it('local edits and deletions reach the site; emptied descriptions and excerpts are emptied there', async () => {
    // An event without an excerpt (the plugin refuses "excerpt": "") is updated.
    await pair.post(`events/${calendar.secret}`, { title: 'Members-only preview (full)' });
    await pair.post(`events/${calendar.concert}`, { excerpt: '' });
    await pair.post(`events/${calendar.marathon}`, {
      description: '',
      start_date: '2027-05-02 08:00:00',
      end_date: '2027-05-02 16:00:00',
      timezone: 'Europe/London',
      venue: calendar.hall,
      tags: [calendar.outdoor],
      cost: '5 - 10',
    });
    await pair.post(`venues/${calendar.park}`, { description: '' });
    await pair.post(`organizers/${calendar.choir}`, { description: '' });
    const removed = await pair.local.api(`events/${calendar.fair}`, {
      method: 'DELETE',
      auth: pair.local.admin,
    });
    expect(removed.status).toBe(200);
    const tagGone = await pair.local.api(`tags/${calendar.family}`, {
      method: 'DELETE',
      auth: pair.local.admin,
    });
    expect(tagGone.status).toBe(200);
    const siteFair = siteId('event', calendar.fair);
    const siteFamily = siteId('tag', calendar.family);

    const report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.conflicts).toEqual([]);
    expect(report.summary).toMatchObject({ updated: 5, deleted: 2, created: 0, failed: 0 });

    const secret = await stored('tribe_events', siteId('event', calendar.secret));
    expect(secret.title.raw).toBe('Members-only preview (full)');
    const concert = await stored('tribe_events', siteId('event', calendar.concert));
    expect(concert.excerpt.raw).toBe('');
    expect(concert.content.raw).toContain('jazz</strong> &amp; swing');
    const marathon = await tribe(`events/${siteId('event', calendar.marathon)}`);
    expect(marathon).toMatchObject({
      description: '',
      start_date: '2027-05-02 08:00:00',
      utc_start_date: '2027-05-02 07:00:00',
      timezone: 'Europe/London',
      venue: { id: siteId('venue', calendar.hall) },
      tags: [expect.objectContaining({ name: 'Outdoor' })],
      cost_details: { values: ['5', '10'] },
    });
    expect((await stored('tribe_events', marathon.id)).content.raw).toBe('');
    expect((await stored('tribe_venue', siteId('venue', calendar.park))).content.raw).toBe('');
    expect((await stored('tribe_organizer', siteId('organizer', calendar.choir))).content.raw).toBe('');
    // The deleted event is in the site's trash, the deleted tag gone.
    expect((await pair.site.api(`wp/v2/tribe_events/${siteFair}?context=edit`)).body.status).toBe('trash');
    expect((await pair.site.api(`wp/v2/tags/${siteFamily}`)).status).toBe(404);

    const again = await pair.sync();
    expect(again.operations).toEqual([]);
    expect(again.conflicts).toEqual([]);
  });

  it('a picture deleted on the site is uploaded again, once, when a record that shows it is sent', async () => {
    const [item] = (await pair.site.api('wp/v2/media?per_page=100')).body;
    const deleted = await pair.site.api(`wp/v2/media/${item.id}?force=true`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    await pair.post(`events/${calendar.concert}`, { title: 'Jazz & Swing Night (sold out)' });
    // Losing its picture changed the event on the site too: a conflict, with the picture in its diff.
    const asked = await pair.sync();
    expect(asked.conflicts).toEqual([
      expect.objectContaining({ localId: calendar.concert, reason: 'both-changed' }),
    ]);
    expect(asked.conflicts[0]!.diff).toEqual(
      expect.arrayContaining([{ field: 'image', local: item.id, remote: null }]),
    );
    const report = await pair.sync({ policy: 'local-wins' });
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ updated: 1, uploaded: 1, failed: 0 });
    const media = (await pair.site.api('wp/v2/media?per_page=100')).body;
    expect(media).toHaveLength(1);
    expect((await tribe(`events/${siteId('event', calendar.concert)}`)).image.id).toBe(media[0].id);
    // The venue sent later shows the new copy: nothing is uploaded a third time.
    await pair.post(`venues/${calendar.hall}`, { phone: '+33 4 11 11 11 11' });
    expect((await pair.sync({ policy: 'local-wins' })).summary).toMatchObject({
      updated: 1,
      uploaded: 0,
      failed: 0,
    });
    expect((await tribe(`venues/${siteId('venue', calendar.hall)}`)).image.id).toBe(media[0].id);
    expect((await pair.site.api('wp/v2/media?per_page=100')).body).toHaveLength(1);
  });

  it('more than a page of events, past and future: all pushed, and found again by the next sync', async () => {
    // 55 events: more than one page of 50; half in the past, which the plugin's default date window hides.
    for (let index = 0; index < 55; index++) {
      const day = new Date(Date.UTC(2027, 0, 1) + (index % 2 ? 1 : -400) * 86_400_000 + index * 86_400_000);
      const date = day.toISOString().slice(0, 10);
      await pair.post('events', {
        title: `Session ${index}`,
        start_date: `${date} 10:00:00`,
        end_date: `${date} 11:00:00`,
        categories: [calendar.theatre],
      });
    }
    const report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ created: 55, failed: 0 });
    // The plugin's list with a date range shows past events too (WordPress' own list leaves them out).
    const listedSessions = async () => {
      const titles: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const answer = await pair.site.api(
          `tribe/events/v1/events?start_date=1900-01-01&end_date=2200-01-01&per_page=50&page=${page}`,
        );
        if (answer.status !== 200) break;
        titles.push(...answer.body.events.map((event: { title: string }) => event.title));
      }
      return titles.filter((title) => title.startsWith('Session ')).sort();
    };
    const sessions = await listedSessions();
    expect(sessions).toHaveLength(55);
    expect(new Set(sessions).size).toBe(55);
    const again = await pair.sync();
    expect(again.operations).toEqual([]);
    expect(again.conflicts).toEqual([]);
    expect(await listedSessions()).toEqual(sessions);
  }, 180_000);

  it('a picture address the site cannot fetch: that record fails, naming the address and what to do', async () => {
    await pair.post('events', {
      title: 'Unreachable poster',
      start_date: '2027-08-01 10:00:00',
      end_date: '2027-08-01 11:00:00',
      image: 'https://pictures.invalid/poster.jpg',
    });
    const report = await pair.sync();
    expect(report.summary).toMatchObject({ created: 0, failed: 1 });
    expect(report.failures[0]!.message).toMatch(
      /refused its picture https:\/\/pictures\.invalid\/poster\.jpg .*must be able to fetch that address/,
    );
  });
});
