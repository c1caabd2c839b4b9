import { describe, expect, it } from 'vitest';
import { backoffDelay, retryAfterMs } from '../../src/main/sync/remoteTransport';
import { toRemoteRecord } from '../../src/main/sync/remoteRecords';

describe('retry timing', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
  });

  it('backs off exponentially with jitter between half and one and a half of each step', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 100, () => 0))).toEqual([50, 100, 200, 400]);
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 100, () => 0.5))).toEqual([
      100, 200, 400, 800,
    ]);
    expect(backoffDelay(3, 100, () => 0.999)).toBeLessThan(1200);
  });
});

describe('remote pictures', () => {
  const event = {
    id: 4,
    slug: 'talk',
    title: 'Talk',
    start_date: '2026-01-01 10:00:00',
    end_date: '2026-01-01 11:00:00',
  };

  it('compares the image by its media id, with no key when there is none (old links hash as before)', () => {
    const shown = toRemoteRecord('wordpress', 'event', {
      ...event,
      image: { url: 'https://site.example/wp-content/uploads/a.png', id: 12, extension: 'png', sizes: {} },
    });
    expect(shown.fields.image).toBe(12);
    expect(shown.imageUrl).toBe('https://site.example/wp-content/uploads/a.png');
    // WordPress writes `false` for none, or leaves the key out of a venue (REFERENCE §3.4, §3.5).
    for (const none of [false, undefined]) {
      const record = toRemoteRecord('wordpress', 'venue', {
        id: 3,
        slug: 'hall',
        venue: 'Hall',
        image: none,
      });
      expect(record.fields).not.toHaveProperty('image');
      expect(record.imageUrl).toBeNull();
    }
  });

  it('an image that is not {url, id} is a bad answer, named', () => {
    expect(() =>
      toRemoteRecord('wordpress', 'organizer', { id: 3, slug: 'al', organizer: 'Al', image: 'a.png' }),
    ).toThrow(
      /organizer 3 that is not a valid organizer: its image must be a picture \(\{id, url\}\) or false, not "a\.png"/,
    );
    expect(() => toRemoteRecord('wordpress', 'event', { ...event, image: { url: 'x' } })).toThrow(
      /REMOTE_BAD_RECORD|image/,
    );
  });
});
