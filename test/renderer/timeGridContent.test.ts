import { describe, expect, it } from 'vitest';
import { shortClock, softHyphens } from '../../src/renderer/src/calendar/timeGridContent';

const shown = (title: string) => softHyphens(title).replace(/\u00AD/g, '·');

describe('softHyphens', () => {
  it('lets long words break between syllables, short words never', () => {
    expect(shown('Choir rehearsal')).toBe('Choir re·hear·sal');
    expect(shown('Christmas Concert')).toBe('Christ·mas Con·cert');
    expect(shown('Orchestra')).toBe('Or·ches·tra');
    expect(shown('Pub quiz')).toBe('Pub quiz');
    // The text itself is unchanged but for the soft hyphens.
    expect(softHyphens('Prova d’orchestra, 8 dicembre').replace(/\u00AD/g, '')).toBe(
      'Prova d’orchestra, 8 dicembre',
    );
  });
});

describe('shortClock', () => {
  it('writes 12-hour times as phone calendars do, and leaves 24-hour ones', () => {
    expect(shortClock('9:30 PM')).toBe('9:30p');
    expect(shortClock('11:00 PM')).toBe('11p');
    expect(shortClock('7:05 am')).toBe('7:05a');
    expect(shortClock('21:30')).toBe('21:30');
  });
});
