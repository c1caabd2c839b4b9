import type { StoredEvent, StoredOrganizer, StoredVenue } from '../../store/schema';
import { fromUtcSql, isoWithOffset } from '../../core/dates/sqlDates';
import { htmlToText } from '../../core/html';
import { shownOrganizerIds, shownVenueId } from '../../core/eventLinks';
import { permalink, presentImage, withoutEmpty, type PresentEnv } from './common';

/** schema.org data of a venue (REFERENCE §3.9). */
export function venueJsonLd(venue: StoredVenue, env: PresentEnv) {
  const image = presentImage(venue.imageId, env);
  const address = withoutEmpty({
    '@type': 'PostalAddress',
    streetAddress: venue.address,
    addressLocality: venue.city,
    addressRegion: venue.stateprovince || venue.state || venue.province,
    postalCode: venue.zip,
    addressCountry: venue.country,
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
    telephone: venue.phone,
    sameAs: venue.website,
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
    url: organizer.website,
    telephone: organizer.phone,
    email: organizer.email,
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
