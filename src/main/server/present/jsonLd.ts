import type { StoredEvent, StoredOrganizer, StoredVenue } from '../../store/schema';
import { fromUtcSql, isoWithOffset } from '../../core/dates/sqlDates';
import { htmlToText } from '../../core/html';
import { shownOrganizerIds, shownVenueId } from '../../core/eventLinks';
import { permalink, presentImage, withoutEmpty, type PresentEnv } from './common';
import { jsonLdOfRows } from '../../../shared/fields/table';
import { VENUE_TEXT_FIELDS } from '../../../shared/fields/venue';
import { ORGANIZER_TEXT_FIELDS } from '../../../shared/fields/organizer';

/** schema.org data of a venue (REFERENCE §3.9). */
export function venueJsonLd(venue: StoredVenue, env: PresentEnv) {
  const image = presentImage(venue.imageId, env);
  const address = withoutEmpty({
    '@type': 'PostalAddress',
    ...jsonLdOfRows(VENUE_TEXT_FIELDS, venue, 'jsonLdAddress'),
    // One region from the three fields that may hold it.
    addressRegion: venue.stateprovince || venue.state || venue.province,
  });
  return withoutEmpty({
    '@type': 'Place',
    name: htmlToText(venue.name),
    description: htmlToText(venue.description),
    image: image ? image.url : '',
    url: permalink(venue, env.links),
    address,
    geo:
      venue.geoLat !== null && venue.geoLng !== null
        ? { '@type': 'GeoCoordinates', latitude: venue.geoLat, longitude: venue.geoLng }
        : null,
    ...jsonLdOfRows(VENUE_TEXT_FIELDS, venue, 'jsonLd'),
  });
}

/** schema.org data of an organizer. */
export function organizerJsonLd(organizer: StoredOrganizer, env: PresentEnv) {
  const image = presentImage(organizer.imageId, env);
  return withoutEmpty({
    '@type': 'Person',
    name: htmlToText(organizer.name),
    description: htmlToText(organizer.description),
    image: image ? image.url : '',
    ...jsonLdOfRows(ORGANIZER_TEXT_FIELDS, organizer, 'jsonLd'),
    // The website is the organizer's `url` (its row) and also what identifies them elsewhere.
    sameAs: organizer.website,
  });
}

/** schema.org data of an event, with its place, organizers and offer. */
export function eventJsonLd(
  event: StoredEvent,
  env: PresentEnv,
  cost: { text: string; values: string[]; currency: string },
) {
  const image = presentImage(event.imageId, env);
  const venueId = shownVenueId(env.store, event);
  const venue = venueId ? env.store.venues.get(venueId) : undefined;
  const organizers = shownOrganizerIds(env.store, event).map((id) => env.store.organizers.get(id)!);
  const url = permalink(event, env.links);
  return withoutEmpty({
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: htmlToText(event.title),
    description: htmlToText(event.excerpt || event.description),
    image: image ? image.url : '',
    url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: isoWithOffset(event.startLocal, event.timezone),
    endDate: isoWithOffset(event.endLocal, event.timezone),
    location: venue ? venueJsonLd(venue, env) : null,
    organizer:
      organizers.length === 0
        ? null
        : organizers.length === 1
          ? organizerJsonLd(organizers[0]!, env)
          : organizers.map((organizer) => organizerJsonLd(organizer, env)),
    offers:
      cost.values.length > 0
        ? {
            '@type': 'Offer',
            price: cost.text,
            priceCurrency: cost.currency,
            url,
            category: 'primary',
            availability: 'inStock',
            validFrom: isoWithOffset(
              fromUtcSql(event.dateUtc, env.store.settings.timezone),
              env.store.settings.timezone,
            ),
          }
        : null,
    performer: 'Organization',
  });
}
