import type { RecordKind } from '../api/records';

/** One input of a record form, named as the API field it edits. */
export interface RecordField {
  key: string;
  label: string;
  type: 'text' | 'textarea' | 'email' | 'url' | 'number' | 'checkbox' | 'parent';
  required?: boolean;
}

/** The form of each kind: the fields the API accepts for it (REFERENCE §3). */
export const RECORD_FIELDS: Record<RecordKind, RecordField[]> = {
  venues: [
    { key: 'venue', label: 'fields.name', type: 'text', required: true },
    { key: 'address', label: 'fields.address', type: 'text' },
    { key: 'city', label: 'fields.city', type: 'text' },
    { key: 'stateprovince', label: 'fields.stateProvince', type: 'text' },
    { key: 'zip', label: 'fields.zip', type: 'text' },
    { key: 'country', label: 'fields.country', type: 'text' },
    { key: 'phone', label: 'fields.phone', type: 'text' },
    { key: 'website', label: 'fields.website', type: 'url' },
    { key: 'geo_lat', label: 'fields.latitude', type: 'number' },
    { key: 'geo_lng', label: 'fields.longitude', type: 'number' },
    { key: 'show_map', label: 'fields.showMap', type: 'checkbox' },
    { key: 'show_map_link', label: 'fields.showMapLink', type: 'checkbox' },
    { key: 'description', label: 'fields.description', type: 'textarea' },
  ],
  organizers: [
    { key: 'organizer', label: 'fields.name', type: 'text', required: true },
    { key: 'phone', label: 'fields.phone', type: 'text' },
    { key: 'email', label: 'fields.email', type: 'email' },
    { key: 'website', label: 'fields.website', type: 'url' },
    { key: 'description', label: 'fields.description', type: 'textarea' },
  ],
  categories: [
    { key: 'name', label: 'fields.name', type: 'text', required: true },
    { key: 'slug', label: 'fields.slug', type: 'text' },
    { key: 'parent', label: 'fields.parent', type: 'parent' },
    { key: 'description', label: 'fields.description', type: 'textarea' },
  ],
  tags: [
    { key: 'name', label: 'fields.name', type: 'text', required: true },
    { key: 'slug', label: 'fields.slug', type: 'text' },
    { key: 'description', label: 'fields.description', type: 'textarea' },
  ],
};

/** Columns of each list besides the name. */
export const RECORD_COLUMNS: Record<RecordKind, { key: string; label: string }[]> = {
  venues: [
    { key: 'city', label: 'fields.city' },
    { key: 'country', label: 'fields.country' },
  ],
  organizers: [
    { key: 'email', label: 'fields.email' },
    { key: 'phone', label: 'fields.phone' },
  ],
  categories: [
    { key: 'parentName', label: 'fields.parent' },
    { key: 'count', label: 'fields.events' },
  ],
  tags: [{ key: 'count', label: 'fields.events' }],
};

/** Venues and organizers go to the trash and come back; terms are deleted for good (as the API does). */
export const RESTORABLE: Record<RecordKind, boolean> = {
  venues: true,
  organizers: true,
  categories: false,
  tags: false,
};

type Values = Record<string, string | boolean>;

/** Form values of a record (everything as the inputs hold it). */
export function valuesOf(kind: RecordKind, record: Record<string, unknown> | null): Values {
  const values: Values = {};
  for (const field of RECORD_FIELDS[kind]) {
    const value = record?.[field.key];
    if (field.type === 'checkbox') values[field.key] = record ? value !== false : true;
    else if (field.type === 'parent') values[field.key] = value ? String(value) : '';
    else
      values[field.key] = value === undefined || value === null || Array.isArray(value) ? '' : String(value);
  }
  return values;
}

/** The request body: all fields for a create (empty ones left out), changed fields for an update. */
export function recordBody(kind: RecordKind, values: Values, before?: Values): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of RECORD_FIELDS[kind]) {
    const value = values[field.key];
    if (before && value === before[field.key]) continue;
    if (!before && value === '') continue;
    if (field.type === 'number') body[field.key] = value === '' ? '' : Number(value);
    else if (field.type === 'parent') body[field.key] = value === '' ? 0 : Number(value);
    else body[field.key] = value;
  }
  // Coordinates travel together: the API wants both or neither.
  if (kind === 'venues' && ('geo_lat' in body || 'geo_lng' in body)) {
    for (const key of ['geo_lat', 'geo_lng']) {
      body[key] = values[key] === '' ? '' : Number(values[key]);
    }
  }
  return body;
}
