/*
 * Where things are in an .ics file, for messages that name a line: ical.js parses the file but keeps no line
 * numbers, so this reads the raw text once more, unfolding continuation lines (RFC 5545 §3.1) and keeping the
 * line each property starts on.
 */

/** One property of a VEVENT as written: its unfolded text (`EXDATE;TZID=Europe/Rome:20261215T193000`). */
export interface IcsProperty {
  /** Upper-case property name (`RRULE`, `EXDATE`…). */
  name: string;
  /** 1-based line of the file where it starts. */
  line: number;
  text: string;
}

/** A VEVENT of the file: the line of its BEGIN and its own properties (not those of a nested VALARM). */
export interface IcsVeventText {
  line: number;
  properties: IcsProperty[];
}

/** The VEVENTs of an .ics text, in file order (the order ical.js lists them). */
export function veventTexts(text: string): IcsVeventText[] {
  const logical: { line: number; text: string }[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    if ((raw.startsWith(' ') || raw.startsWith('\t')) && logical.length > 0)
      logical.at(-1)!.text += raw.slice(1);
    else logical.push({ line: index + 1, text: raw });
  }
  const vevents: IcsVeventText[] = [];
  let current: IcsVeventText | null = null;
  let depth = 0; // components opened inside the current VEVENT (VALARM)
  for (const { line, text: content } of logical) {
    const upper = content.trim().toUpperCase();
    if (current === null) {
      if (upper === 'BEGIN:VEVENT') current = { line, properties: [] };
    } else if (upper.startsWith('BEGIN:')) depth++;
    else if (upper.startsWith('END:')) {
      if (depth > 0) depth--;
      else {
        vevents.push(current);
        current = null;
      }
    } else if (depth === 0) {
      const name = /^[A-Za-z0-9-]+/.exec(content)?.[0].toUpperCase() ?? '';
      current.properties.push({ name, line, text: content });
    }
  }
  return vevents;
}

/** The line of a VEVENT's first property `name`, else of its BEGIN. */
export function lineOf(vevent: IcsVeventText | undefined, name: string): number {
  return vevent?.properties.find((property) => property.name === name)?.line ?? vevent?.line ?? 0;
}
