import type { EventContentArg } from '@fullcalendar/core';

const SOFT_HYPHEN = '\u00AD';
const VOWEL = /[aeiouyàáâãäåèéêëìíîïòóôõöùúûüýąęó]/i;
/** Words at least this long get places where they may break (with a hyphen drawn there, only if they must). */
const LONG_WORD = 7;

/** Consonant pairs read as one sound, never split. */
const DIGRAPHS = new Set(['ch', 'sh', 'th', 'ph', 'ck', 'gh', 'wh', 'qu']);
/** Consonant pairs that may start a syllable (orches·tra, exam·ple). */
const ONSETS = new Set(['tr', 'pr', 'br', 'cr', 'dr', 'fr', 'gr', 'pl', 'bl', 'cl', 'fl', 'gl']);

/**
 * A title with soft hyphens in its long words, between syllables as simple rules find them (a consonant between
 * vowels starts the next syllable; consonants between vowels are split before the last one, or before a pair
 * that may start a syllable: re·hear·sal, Christ·mas, con·cert, or·ches·tra), never before a word's third
 * letter or after its last but two. The browser breaks there only when a word does not fit its line, and draws
 * a hyphen; elsewhere nothing shows. Without them a narrow column breaks a word anywhere ("Choir rehea rsal"),
 * or lets it overflow: Chromium on Linux has no hyphenation dictionaries for `hyphens: auto`.
 */
export function softHyphens(title: string): string {
  return title.replace(/\p{L}+/gu, (word) => {
    if (word.length < LONG_WORD) return word;
    // Sounds: letters, a digraph taken as one consonant.
    const sounds: string[] = [];
    for (let i = 0; i < word.length; i += 1) {
      const pair = word.slice(i, i + 2).toLowerCase();
      if (DIGRAPHS.has(pair)) {
        sounds.push(word.slice(i, i + 2));
        i += 1;
      } else sounds.push(word.charAt(i));
    }
    const isVowel = (sound: string | undefined) => sound?.length === 1 && VOWEL.test(sound);
    const breaks = new Set<number>();
    for (let i = 1; i < sounds.length; i += 1) {
      if (isVowel(sounds[i]) || !isVowel(sounds[i - 1])) continue;
      let end = i;
      while (end < sounds.length && !isVowel(sounds[end])) end += 1;
      if (end >= sounds.length) break;
      const cluster = end - i;
      const lastTwo = cluster >= 2 ? `${sounds[end - 2]}${sounds[end - 1]}`.toLowerCase() : '';
      breaks.add(cluster === 1 ? i : ONSETS.has(lastTwo) ? end - 2 : end - 1);
      i = end - 1;
    }
    let out = '';
    let at = 0;
    sounds.forEach((sound, index) => {
      if (breaks.has(index) && at >= 2 && word.length - at >= 3) out += SOFT_HYPHEN;
      out += sound;
      at += sound.length;
    });
    return out;
  });
}

/** A 12-hour clock time shortened as phone calendars write it: "9:30 PM" → "9:30p", "11:00 PM" → "11p". */
export function shortClock(clock: string): string {
  const match = /^(\d{1,2})(?::(\d{2}))?\s*([AaPp])\.?\s*[Mm]\.?$/.exec(clock.trim());
  if (!match) return clock;
  const [, hour, minute, meridiem = ''] = match;
  return `${hour}${minute && minute !== '00' ? `:${minute}` : ''}${meridiem.toLowerCase()}`;
}

/**
 * An event in the week and day views' hours, as FullCalendar draws it, but each clock time kept whole on its
 * line ("9:30 PM -" over "11:00 PM", never "11:00 P") and the title breaking between words, or inside a long
 * word with a hyphen. All-day events (in the all-day row) keep FullCalendar's own drawing.
 */
export function timeGridEventContent(arg: EventContentArg): true | { domNodes: Node[] } {
  if (arg.event.allDay) return true;
  const frame = document.createElement('div');
  frame.className = 'fc-event-main-frame';
  if (arg.timeText) {
    const time = document.createElement('div');
    time.className = 'fc-event-time';
    arg.timeText.split(' - ').forEach((clock, index) => {
      // Between the clocks, a dash the lines may break around: "9:30 PM -" over "11:00 PM", or each alone.
      if (index > 0) time.append(' - ');
      const part = document.createElement('span');
      part.className = 'event-clock';
      const long = document.createElement('span');
      long.className = 'clock-long';
      long.textContent = clock;
      part.append(long);
      const short = shortClock(clock);
      if (short !== clock) {
        // Shown instead in an event too narrow for the long one (a container query in CalendarView).
        const compact = document.createElement('span');
        compact.className = 'clock-short';
        compact.textContent = short;
        part.append(compact);
      }
      time.append(part);
    });
    frame.append(time);
  }
  const container = document.createElement('div');
  container.className = 'fc-event-title-container';
  const title = document.createElement('div');
  title.className = 'fc-event-title fc-sticky';
  title.textContent = arg.event.title ? softHyphens(arg.event.title) : '\u00A0';
  container.append(title);
  frame.append(container);
  return { domNodes: [frame] };
}
