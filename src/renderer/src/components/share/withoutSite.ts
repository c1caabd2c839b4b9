import type { RouteLocationRaw } from 'vue-router';
import type { ShareChoice } from './shareChoices';

/** One step of the guide: its text, and the export panel or the link that does it. */
export interface GuideStep {
  text: string;
  export?: boolean;
  link?: { to: RouteLocationRaw; label: string; testid?: string };
}

/** What the guide says to an organisation without a site to share through: why, and the same three steps. */
export interface WithoutSiteGuide {
  title: string;
  lead: { text: string; testid: string; notice: boolean };
  heading: string;
  steps: GuideStep[];
}

/**
 * The guide for a CalDAV calendar (not shared from here yet) and for an organisation with nothing yet: both
 * export a file, publish the calendar feeds, or add a WordPress site. Null for a WordPress site (its own steps).
 */
export function withoutSiteGuide(choice: ShareChoice | null): WithoutSiteGuide | null {
  if (choice !== 'caldav' && choice !== 'nothing') return null;
  const caldav = choice === 'caldav';
  return {
    title: `share.${choice}.title`,
    lead: caldav
      ? { text: 'share.caldav.notYet', testid: 'share-caldav-not-yet', notice: true }
      : { text: 'share.nothing.why', testid: 'share-why', notice: false },
    heading: caldav ? 'share.caldav.meanwhile' : 'share.nothing.now',
    steps: [
      { text: `share.${choice}.exportStep`, export: true },
      {
        text: `share.${choice}.feedsStep`,
        link: { to: { name: 'settings', hash: '#feeds' }, label: 'share.feedsAction', testid: 'share-feeds' },
      },
      {
        text: caldav ? 'share.caldav.wordpressStep' : 'share.nothing.siteStep',
        link: {
          to: { name: 'share', query: { have: 'wordpress' } },
          label: 'share.nothing.siteAction',
          testid: caldav ? undefined : 'share-site',
        },
      },
    ],
  };
}
