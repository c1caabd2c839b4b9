/**
 * The public subscribe links of a WordPress site running The Events Calendar: what choir members' phones and
 * newsletters use (the local feeds only answer on this computer). The plugin serves its iCalendar export at
 * `{site}/events/?ical=1`, and per category at `{site}/events/category/{slug}/?ical=1`; Google Calendar
 * subscribes to a `webcal://` address through its `render?cid=` page, as the plugin's own "Google Calendar"
 * subscribe link does.
 */
export interface SubscribeLink {
  /** The iCalendar address (`https://…/?ical=1`). */
  ical: string;
  /** The same as `webcal://`: calendar apps open it as "subscribe". */
  webcal: string;
  /** Google Calendar's page that subscribes to it. */
  google: string;
}

export interface WebsiteSubscribeLinks {
  /** The site's address, e.g. `https://choir.example.org` */
  site: string;
  calendar: SubscribeLink;
  categories: (SubscribeLink & { name: string; slug: string })[];
}

/** The site a REST root belongs to: `https://x.org/wp-json/` → `https://x.org` (also `/index.php?rest_route=`). */
export function siteOfRestRoot(root: string): string | null {
  let url: URL;
  try {
    url = new URL(root);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const path = url.pathname.replace(/\/(wp-json\/?|index\.php)$/i, '').replace(/\/+$/, '');
  return `${url.origin}${path}`;
}

function link(ical: string): SubscribeLink {
  const webcal = ical.replace(/^https?:/, 'webcal:');
  return { ical, webcal, google: `https://www.google.com/calendar/render?cid=${encodeURIComponent(webcal)}` };
}

/** The links of a site from its REST root and the categories to offer (null for a root that is no web address). */
export function websiteSubscribeLinks(
  root: string,
  categories: { name: string; slug: string }[],
): WebsiteSubscribeLinks | null {
  const site = siteOfRestRoot(root);
  if (site === null) return null;
  return {
    site,
    calendar: link(`${site}/events/?ical=1`),
    categories: categories.map((category) => ({
      name: category.name,
      slug: category.slug,
      ...link(`${site}/events/category/${encodeURIComponent(category.slug)}/?ical=1`),
    })),
  };
}
