import { EVENT_FLAG_FIELDS } from '../../../shared/fields/event';
import { shapeOfRows } from '../../../shared/fields/table';

/**
 * Password blanking (REFERENCE §6.4): replaces protected keys wherever they occur in a record, recursively;
 * keys not present are not added.
 */
const REPLACEMENTS: Record<string, () => unknown> = {
  description: () => '',
  excerpt: () => '',
  cost: () => '',
  website: () => '',
  email: () => '',
  phone: () => '',
  stateprovince: () => '',
  zip: () => '',
  province: () => '',
  country: () => '',
  city: () => '',
  address: () => '',
  image: () => false,
  all_day: () => null,
  // A venue's show_map and show_map_link too.
  ...shapeOfRows(EVENT_FLAG_FIELDS, 'wire', () => null),
  ticketed: () => null,
  cost_details: () => ({ currency_symbol: '', currency_position: '', currency_code: '', values: [] }),
  categories: () => [],
  tags: () => [],
  venue: () => [],
  organizer: () => [],
  custom_fields: () => [],
  geo_lat: () => 0,
  geo_lng: () => 0,
};

export function blankProtected<T>(value: T): T {
  if (Array.isArray(value)) return (value as unknown[]).map((item) => blankProtected(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key in REPLACEMENTS ? REPLACEMENTS[key]!() : blankProtected(inner),
    ]),
  ) as T;
}
