import { DateTime } from 'luxon';
import type { CalendarEvent, EventResponse } from '../api/records';
import { currencySymbolSchema, type CurrencyPosition } from '../../../shared/schemas/currency';

/** The editor's model of an event: flat, camelCase, with dates split for the date and time inputs. */
export interface EventForm {
  title: string;
  description: string;
  excerpt: string;
  allDay: boolean;
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
  timezone: string;
  venueId: number | null;
  organizerIds: number[];
  categoryIds: number[];
  tagIds: number[];
  /** The cost as typed. */
  cost: string;
  /** The event's own currency symbol and position; '' = as the cost text shows it, else the site default. */
  currencySymbol: string;
  currencyPosition: '' | CurrencyPosition;
  website: string;
  /** A picture's web address, or the id of a picture uploaded from this computer. */
  image: string | number;
  featured: boolean;
  sticky: boolean;
  hideFromListings: boolean;
  showMap: boolean;
  showMapLink: boolean;
  status: string;
  /** A new password; empty keeps the current one (the API never reveals it). */
  password: string;
  removePassword: boolean;
  language: string;
  /** The series' RFC 5545 lines (RRULE, EXDATE, RDATE); `[]` for a single event. */
  recurrence: string[];
}

/** What the API says of an event's series. */
export interface SeriesInfo {
  recurrence: string[];
  /** The occurrence's original start (`Y-m-d H:i:s`), null for a single event. */
  recurrenceId: string | null;
}

export function seriesOf(event: Pick<CalendarEvent, 'recurrence' | 'recurrence_id'>): SeriesInfo {
  return { recurrence: event.recurrence ?? [], recurrenceId: event.recurrence_id ?? null };
}

/** Whether an event is one of a series: saving, moving or deleting it asks which events the change is for. */
export const inSeries = (event: Pick<CalendarEvent, 'recurrence' | 'recurrence_id'>): boolean =>
  seriesOf(event).recurrenceId !== null;

/** Statuses the editor offers (`future` is set by the API itself for a scheduled publication). */
export const EDITABLE_STATUSES = ['publish', 'draft', 'pending', 'private'] as const;

export function emptyEventForm(defaults: Partial<EventForm> & { timezone: string }): EventForm {
  return {
    title: '',
    description: '',
    excerpt: '',
    allDay: false,
    startDate: '',
    startTime: '09:00',
    endDate: '',
    endTime: '10:00',
    venueId: null,
    organizerIds: [],
    categoryIds: [],
    tagIds: [],
    cost: '',
    currencySymbol: '',
    currencyPosition: '',
    website: '',
    image: '',
    featured: false,
    sticky: false,
    hideFromListings: false,
    showMap: true,
    showMapLink: true,
    status: 'publish',
    password: '',
    removePassword: false,
    language: 'en',
    recurrence: [],
    ...defaults,
  };
}

export function formFromEvent(event: EventResponse): EventForm {
  const [startDate = '', startClock = ''] = event.start_date.split(' ');
  const [endDate = '', endClock = ''] = event.end_date.split(' ');
  return {
    title: event.title,
    description: event.description,
    excerpt: event.excerpt,
    allDay: event.all_day === true,
    startDate,
    startTime: startClock.slice(0, 5),
    endDate,
    endTime: endClock.slice(0, 5),
    timezone: event.timezone,
    venueId: Array.isArray(event.venue) ? null : event.venue.id,
    organizerIds: event.organizer.map((organizer) => organizer.id),
    categoryIds: event.categories.map((term) => term.id),
    tagIds: event.tags.map((term) => term.id),
    // Read with context=edit: the cost as the user typed it, the event's own currency.
    cost: event.cost,
    currencySymbol: event.cost_details.currency_symbol,
    currencyPosition: event.cost_details.currency_position,
    // Without a website of its own, the API answers with the event's page: that is not the user's input.
    website: event.website === event.url ? '' : event.website,
    image: event.image ? event.image.url : '',
    featured: event.featured === true,
    sticky: event.sticky === true,
    hideFromListings: event.hide_from_listings === true,
    showMap: event.show_map !== false,
    showMapLink: event.show_map_link !== false,
    status: event.status,
    password: '',
    removePassword: false,
    language: event.language,
    recurrence: seriesOf(event).recurrence,
  };
}

/** Every field of a form in the API's words. */
function wireOf(form: EventForm): Record<string, unknown> {
  const start = form.allDay ? `${form.startDate} 00:00:00` : `${form.startDate} ${form.startTime}:00`;
  const end = form.allDay ? `${form.endDate} 23:59:59` : `${form.endDate} ${form.endTime}:00`;
  const wire: Record<string, unknown> = {
    title: form.title,
    description: form.description,
    excerpt: form.excerpt,
    all_day: form.allDay,
    start_date: start,
    end_date: end,
    timezone: form.timezone,
    venue: form.venueId ?? 0,
    organizer: form.organizerIds,
    categories: form.categoryIds,
    tags: form.tagIds,
    cost: form.cost,
    currency_symbol: form.currencySymbol,
    currency_position: form.currencyPosition,
    website: form.website,
    image: form.image,
    featured: form.featured,
    sticky: form.sticky,
    hide_from_listings: form.hideFromListings,
    show_map: form.showMap,
    show_map_link: form.showMapLink,
    status: form.status,
    recurrence: form.recurrence,
  };
  if (form.removePassword) wire.post_password = '';
  else if (form.password) wire.post_password = form.password;
  return wire;
}

/** Whether a cost text shows something besides numbers, separators and `symbol` (another currency, words). */
function namesOtherCurrency(cost: string, symbol: string): boolean {
  return /[^\d\s.,\-–—/;()]/.test(cost.split(symbol).join(''));
}

/** The API request body of a form: everything for a create, only what changed for an update (true PATCH). */
export function eventBody(form: EventForm, original?: EventForm): Record<string, unknown> {
  const wire = wireOf(form);
  if (!original) {
    // A create sends only what has a value: empty optional fields keep the API's defaults.
    for (const key of [
      'description',
      'excerpt',
      'cost',
      'currency_symbol',
      'currency_position',
      'website',
      'image',
    ] as const) {
      if (wire[key] === '') delete wire[key];
    }
    if (form.venueId === null) delete wire.venue;
    // A single event: the API of a calendar without series never hears of them.
    if (form.recurrence.length === 0) delete wire.recurrence;
    return wire;
  }
  const before = wireOf(original);
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(wire)) {
    if (JSON.stringify(value) !== JSON.stringify(before[key])) patch[key] = value;
  }
  // The dates travel together: the API checks the end against the start.
  if ('start_date' in patch || 'end_date' in patch || 'all_day' in patch || 'timezone' in patch) {
    Object.assign(patch, { start_date: wire.start_date, end_date: wire.end_date, all_day: form.allDay });
  }
  // A new cost alone makes the API read the currency from its text (as the original): when the text names no
  // other currency (`15` after `12`), the currency shown stays with it.
  // Not a currency the API read from the text and would refuse as a symbol (`10 Schweizerfranken`): the
  // new text alone makes it read that currency again.
  const readFromText =
    form.currencySymbol === original.currencySymbol &&
    !currencySymbolSchema.safeParse(form.currencySymbol).success;
  if (
    'cost' in patch &&
    form.currencySymbol !== '' &&
    !readFromText &&
    !namesOtherCurrency(form.cost, form.currencySymbol)
  ) {
    Object.assign(patch, { currency_symbol: form.currencySymbol, currency_position: form.currencyPosition });
  }
  return patch;
}

/** Which form field shows the API's message about a request field. */
export const FIELD_OF_PARAM: Record<string, keyof EventForm> = {
  title: 'title',
  description: 'description',
  excerpt: 'excerpt',
  start_date: 'startDate',
  end_date: 'endDate',
  all_day: 'allDay',
  timezone: 'timezone',
  venue: 'venueId',
  organizer: 'organizerIds',
  categories: 'categoryIds',
  tags: 'tagIds',
  cost: 'cost',
  currency_symbol: 'currencySymbol',
  currency_position: 'currencyPosition',
  website: 'website',
  image: 'image',
  featured: 'featured',
  sticky: 'sticky',
  hide_from_listings: 'hideFromListings',
  show_map: 'showMap',
  show_map_link: 'showMapLink',
  status: 'status',
  post_password: 'password',
  recurrence: 'recurrence',
};

/** The messages the editor shows, by form field (`form`: about the whole event). */
export type EventFormErrors = Partial<Record<keyof EventForm | 'form', string>>;

/** API field messages keyed by form field (unknown parameters under `form`), each worded by `word`. */
export function formErrors(
  fields: Record<string, string>,
  word: (param: string, message: string) => string = (_param, message) => message,
): EventFormErrors {
  const errors: EventFormErrors = {};
  for (const [param, message] of Object.entries(fields)) {
    errors[FIELD_OF_PARAM[param] ?? 'form'] = word(param, message);
  }
  return errors;
}

/** Where an event starts, as the start inputs hold it. */
export type StartFields = Pick<EventForm, 'startDate' | 'startTime'>;
/** When an event starts and ends, as the date and time inputs hold it. */
export type WhenFields = Pick<EventForm, 'startDate' | 'startTime' | 'endDate' | 'endTime'>;

/** A date and a time of the inputs as one wall-clock moment (time zones play no part: the length is on the clock). */
function wallClock(date: string, time: string): DateTime | null {
  const moment = DateTime.fromISO(`${date}T${time || '00:00'}`, { zone: 'utc' });
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && moment.isValid ? moment : null;
}

/**
 * The end once the start moved from `before` to the form's start: the event keeps its length, as in any
 * calendar (moving a 19:00-21:00 concert to the next day moves its end too). Null when nothing is to change:
 * a start or end that cannot be read, or an end that was already before the start.
 */
export function endFollowingStart(
  before: StartFields,
  form: WhenFields,
): Pick<EventForm, 'endDate' | 'endTime'> | null {
  const oldStart = wallClock(before.startDate, before.startTime);
  const newStart = wallClock(form.startDate, form.startTime);
  const end = wallClock(form.endDate, form.endTime);
  if (!oldStart || !newStart || !end || end < oldStart || +newStart === +oldStart) return null;
  const moved = newStart.plus(end.diff(oldStart));
  return { endDate: moved.toISODate() as string, endTime: moved.toFormat('HH:mm') };
}
