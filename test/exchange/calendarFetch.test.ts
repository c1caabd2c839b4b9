import { describe, expect, it } from 'vitest';
import { maskedAddress, requestUrl } from '../../src/main/exchange/calendarFetch';
import { calendarNameOf } from '../../src/main/exchange/sourceRefresh';
import { importAddressProblem } from '../../src/shared/schemas/importSources';

// The pieces of import addresses that need no site: how an address is fetched, shown and named.

describe('import addresses', () => {
  it('fetches webcal:// and webcals:// over https, and http(s) as given', () => {
    expect(requestUrl(' webcal://Example.org/cal.ics?x=1 ').href).toBe('https://example.org/cal.ics?x=1');
    expect(requestUrl('WEBCALS://example.org/a').href).toBe('https://example.org/a');
    expect(requestUrl('http://example.org:8080/a.ics').href).toBe('http://example.org:8080/a.ics');
  });

  it('shows an address without its path or query, where a secret address keeps its secret', () => {
    const google =
      'https://calendar.google.com/calendar/ical/choir%40gmail.com/private-0123456789abcdef/basic.ics';
    expect(maskedAddress(google)).toBe('https://calendar.google.com/…');
    expect(maskedAddress('https://example.org/feed?token=s3cret')).toBe('https://example.org/…');
    expect(maskedAddress('webcal://example.org/x.ics')).toBe('webcal://example.org/…');
    expect(maskedAddress('https://example.org/')).toBe('https://example.org/');
  });

  it('refuses what is not an address to follow, in words', () => {
    expect(importAddressProblem('https://example.org/a.ics')).toBeNull();
    expect(importAddressProblem('webcal://example.org/a.ics')).toBeNull();
    expect(importAddressProblem('file:///etc/passwd')).toMatch(/not file:\/\//);
    expect(importAddressProblem('https://user:pw@example.org/a.ics')).toMatch(/user name or password/);
    expect(importAddressProblem('calendar.google.com/x')).toMatch(/not a web address/);
  });

  it("reads the calendar's own name, unfolded and unescaped", () => {
    const text = 'BEGIN:VCALENDAR\r\nX-WR-CALNAME:Choir\\, Orchestra \r\n and Friends\r\nEND:VCALENDAR\r\n';
    expect(calendarNameOf(text)).toBe('Choir, Orchestra and Friends');
    expect(calendarNameOf('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n')).toBe('');
  });
});
