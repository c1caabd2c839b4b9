import type { StoredOrganizer, StoredVenue } from '../../store/schema';
import { globalId, postHeader, presentImage, withoutEmpty, type PresentEnv } from './common';
import { organizerJsonLd, venueJsonLd } from './jsonLd';
import { blankProtected } from './protect';
import { venueTextWire } from '../../../shared/fields/venue';
import { organizerTextWire } from '../../../shared/fields/organizer';

interface LinkedPostOptions {
  /** Single reads (and venues embedded in a single event) carry `json_ld`. */
  jsonLd?: boolean;
  /** The password the request carries, to unlock a protected post. */
  password?: string;
  /** Whether the caller may edit the post (`context=edit` access). */
  canEdit?: boolean;
}

const isLocked = (post: { password: string }, options: LinkedPostOptions) =>
  post.password !== '' && !options.canEdit && options.password !== post.password;

/** A venue record (REFERENCE §3.5): empty values dropped, then the always-present keys appended. */
export function presentVenue(venue: StoredVenue, env: PresentEnv, options: LinkedPostOptions = {}) {
  const image = presentImage(venue.imageId, env);
  const locked = isLocked(venue, options);
  const hasGeo = venue.geoLat !== null && venue.geoLng !== null;
  const body = {
    ...withoutEmpty({
      id: venue.id,
      ...postHeader(venue, env),
      venue: venue.name,
      description: venue.description,
      excerpt: venue.excerpt,
      slug: venue.slug,
      image,
      ...venueTextWire((key) => venue[key]),
    }),
    // Coordinates are kept whenever both exist, 0 included (the equator is a place).
    ...(hasGeo ? { geo_lat: venue.geoLat!, geo_lng: venue.geoLng! } : {}),
    // No schema.org data for a locked post (REFERENCE §3.9): it would leak what blanking hides.
    ...(options.jsonLd && !locked ? { json_ld: venueJsonLd(venue, env) } : {}),
    show_map: venue.showMap,
    show_map_link: venue.showMapLink,
    global_id: globalId(venue.id, env.links),
    global_id_lineage: [globalId(venue.id, env.links)],
    language: venue.language,
    uid: venue.uid,
  };
  return locked ? blankProtected(body) : body;
}

/** An organizer record (REFERENCE §3.6): every empty value dropped. */
export function presentOrganizer(
  organizer: StoredOrganizer,
  env: PresentEnv,
  options: LinkedPostOptions = {},
) {
  const locked = isLocked(organizer, options);
  const body = {
    ...withoutEmpty({
      id: organizer.id,
      ...postHeader(organizer, env),
      organizer: organizer.name,
      description: organizer.description,
      excerpt: organizer.excerpt,
      slug: organizer.slug,
      image: presentImage(organizer.imageId, env),
      ...organizerTextWire((key) => organizer[key]),
      json_ld: options.jsonLd && !locked ? organizerJsonLd(organizer, env) : null,
    }),
    global_id: globalId(organizer.id, env.links),
    global_id_lineage: [globalId(organizer.id, env.links)],
    language: organizer.language,
    uid: organizer.uid,
  };
  return locked ? blankProtected(body) : body;
}
