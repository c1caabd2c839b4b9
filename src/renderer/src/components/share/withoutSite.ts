import type { RouteLocationRaw } from 'vue-router';
import type { ShareChoice } from './shareChoices';

/** One step of the guide: its text, and the export panel or the link that does it. */
export interface GuideStep {
  text: string;
  export?: boolean;
  link?: { to: RouteLocationRaw; label: string; testid?: string };
}

/** What the guide says to an organisation without a server to share through: why, and three steps. */
export interface WithoutSiteGuide {
  title: string;
  lead: { text: string; testid: string; notice: boolean };
  heading: string;
  steps: GuideStep[];
}

/**
 * The guide for an organisation with nothing yet: why phones need a server, and three steps (export a file,
 * publish the calendar feeds, add a site). Null for a WordPress site or a CalDAV calendar (each its own steps).
 */
export function withoutSiteGuide(choice: ShareChoice | null): WithoutSiteGuide | null {
  if (choice !== 'nothing') return null;
  return {
    title: 'share.nothing.title',
    lead: { text: 'share.nothing.why', testid: 'share-why', notice: false },
    heading: 'share.nothing.now',
    steps: [
      { text: 'share.nothing.exportStep', export: true },
      {
        text: 'share.nothing.feedsStep',
        link: { to: { name: 'settings', hash: '#feeds' }, label: 'share.feedsAction', testid: 'share-feeds' },
      },
      {
        text: 'share.nothing.siteStep',
        link: {
          to: { name: 'share', query: { have: 'wordpress' } },
          label: 'share.nothing.siteAction',
          testid: 'share-site',
        },
      },
    ],
  };
}

/** A place to sync with (a WordPress site, a CalDAV calendar): its numbered steps and the form that adds it. */
export interface SiteGuide {
  steps: string[];
  hint?: string;
  action: string;
  add: 'site' | 'caldav';
  testid: string;
}

export const SITE_GUIDES: Partial<Record<ShareChoice, SiteGuide>> = {
  wordpress: {
    steps: [1, 2, 3, 4].map((step) => `share.wordpress.step${step}`),
    hint: 'share.wordpress.plugin',
    action: 'share.wordpress.action',
    add: 'site',
    testid: 'share-add-site',
  },
  caldav: {
    steps: [1, 2, 3].map((step) => `share.caldav.step${step}`),
    action: 'share.caldav.action',
    add: 'caldav',
    testid: 'share-add-caldav',
  },
};
