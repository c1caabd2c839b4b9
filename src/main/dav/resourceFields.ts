import ICAL from 'ical.js';
import { isMappedProperty, X_ALT_DESC, X_ORGANIZER, X_PREFIX, X_STATUS } from '../exchange/icsFields';

/*
 * A calendar object resource as the sync with a CalDAV remote compares and merges it: the properties of the
 * iCalendar mapping (exchange/icsFields.ts) grouped into fields, one field per thing a person edits. What a
 * calendar app adds that we do not model (VALARM, ATTENDEE, X-MOZ-*, X-APPLE-*) is in no field: a change of
 * only those is no change, and our writes give those lines back (keptProperties.ts).
 */

/** The fields of a resource and the properties of its main VEVENT each is made of. */
const GROUPS: Record<string, readonly string[]> = {
  title: ['SUMMARY'],
  details: ['DESCRIPTION', X_ALT_DESC],
  when: ['DTSTART', 'DTEND', 'DURATION'],
  place: ['LOCATION', 'GEO'],
  people: ['ORGANIZER', X_ORGANIZER],
  categories: ['CATEGORIES'],
  website: ['URL'],
  state: ['STATUS', X_STATUS],
  repeat: ['RRULE', 'RDATE', 'EXDATE'],
};
/** The changes of one occurrence (RECURRENCE-ID VEVENTs), all in one field: a series' exceptions. */
export const OVERRIDES_FIELD = 'exceptions';

/** Written anew by every writer (stamps, identity): never compared. */
const UNCOMPARED = new Set(['UID', 'DTSTAMP', 'LAST-MODIFIED', 'SEQUENCE', 'CREATED']);

const FIELD_OF = new Map(
  Object.entries(GROUPS).flatMap(([field, names]) => names.map((name) => [name, field] as const)),
);

/** The field a property belongs to (null: not compared); each other `X-CALENDAR-DESK-*` is a field of its own. */
function fieldOfProperty(name: string): string | null {
  if (UNCOMPARED.has(name) || !isMappedProperty(name) || name === 'RECURRENCE-ID') return null;
  return FIELD_OF.get(name) ?? (name.startsWith(X_PREFIX) ? name.slice(X_PREFIX.length).toLowerCase() : null);
}

/** The main VEVENT (the series or single event) and the overrides of a parsed resource. */
function veventsOf(root: ICAL.Component) {
  const all = root.getAllSubcomponents('vevent');
  const main = all.find((vevent) => !vevent.hasProperty('recurrence-id')) ?? all[0];
  return { main, overrides: all.filter((vevent) => vevent !== main && vevent.hasProperty('recurrence-id')) };
}

const overrideKey = (vevent: ICAL.Component) => String(vevent.getFirstPropertyValue('recurrence-id') ?? '');

/** The modelled lines of an override, RECURRENCE-ID first: what an exception changes. */
function overrideText(vevent: ICAL.Component): string {
  const lines = vevent
    .getAllProperties()
    .filter((property) => {
      const name = property.name.toUpperCase();
      return name === 'RECURRENCE-ID' || fieldOfProperty(name) !== null;
    })
    .map((property) => property.toICALString())
    .sort(
      (a, b) =>
        Number(b.startsWith('RECURRENCE-ID')) - Number(a.startsWith('RECURRENCE-ID')) || a.localeCompare(b),
    );
  return lines.join('\n');
}

/** A property as compared: its value alone when it has no parameters (what a conflict shows), else its line. */
function propertyText(property: ICAL.Property): string {
  const line = property.toICALString();
  const value: unknown = property.getFirstValue();
  const plain = line.startsWith(`${property.name.toUpperCase()}:`) && property.getValues().length === 1;
  return plain && typeof value === 'string' ? value : line;
}

/** Parses a resource's text (throws ical.js' error on malformed data). */
export const parseResource = (text: string) => new ICAL.Component(ICAL.parse(text) as unknown[]);

/**
 * The comparable fields of a resource: each field's property lines, sorted, as one text ('' when absent), and
 * the overrides (in RECURRENCE-ID order) as one more.
 */
export function resourceFields(root: ICAL.Component): Record<string, string> {
  const { main, overrides } = veventsOf(root);
  const lines: Record<string, string[]> = Object.fromEntries(Object.keys(GROUPS).map((field) => [field, []]));
  for (const property of main?.getAllProperties() ?? []) {
    const field = fieldOfProperty(property.name.toUpperCase());
    if (field) (lines[field] ??= []).push(propertyText(property));
  }
  const fields: Record<string, string> = {};
  for (const [field, found] of Object.entries(lines)) fields[field] = found.sort().join('\n');
  fields[OVERRIDES_FIELD] = overrides
    .sort((a, b) => overrideKey(a).localeCompare(overrideKey(b)))
    .map(overrideText)
    .join('\n\n');
  return fields;
}

const copyOf = (property: ICAL.Property) =>
  new ICAL.Property(structuredClone(property.toJSON() as unknown[]));

/** Puts into `target` the VTIMEZONEs of `source` it lacks (a field taken from `source` may name one). */
function addMissingZones(target: ICAL.Component, source: ICAL.Component): void {
  const have = new Set(
    target.getAllSubcomponents('vtimezone').map((zone) => zone.getFirstPropertyValue('tzid')),
  );
  for (const zone of source.getAllSubcomponents('vtimezone'))
    if (!have.has(zone.getFirstPropertyValue('tzid')))
      target.addSubcomponent(new ICAL.Component(structuredClone(zone.toJSON() as unknown[])));
}

/**
 * `target`'s resource with the given fields taken from `source` (a three-way merge's outcome): the properties of
 * each field replaced by the source's, the overrides replaced as a whole. Returns the new text.
 */
export function withFieldsFrom(target: string, source: string, fields: readonly string[]): string {
  const into = parseResource(target);
  const from = parseResource(source);
  const wanted = new Set(fields);
  const { main: mainInto } = veventsOf(into);
  const { main: mainFrom, overrides: overridesFrom } = veventsOf(from);
  if (!mainInto || !mainFrom) return target;
  for (const property of mainInto.getAllProperties()) {
    const field = fieldOfProperty(property.name.toUpperCase());
    if (field && wanted.has(field)) mainInto.removeProperty(property);
  }
  for (const property of mainFrom.getAllProperties()) {
    const field = fieldOfProperty(property.name.toUpperCase());
    if (field && wanted.has(field)) mainInto.addProperty(copyOf(property));
  }
  if (wanted.has(OVERRIDES_FIELD)) {
    for (const vevent of veventsOf(into).overrides) into.removeSubcomponent(vevent);
    for (const vevent of overridesFrom)
      into.addSubcomponent(new ICAL.Component(structuredClone(vevent.toJSON() as unknown[])));
  }
  addMissingZones(into, from);
  return into.toString();
}
