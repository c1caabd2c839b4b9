import { currentZoneNames, zoneRegion } from '../../../shared/timeZones';

export interface ZoneChoice {
  /** The IANA name stored (Europe/Rome). */
  name: string;
  /** Its region, for grouping ("" for UTC). */
  region: string;
  /** What the picker shows: the place and today's offset ("Rome (UTC+1)"). */
  label: string;
}

let choices: ZoneChoice[] | null = null;

/** Today's offset of a zone from UTC, as "UTC+1", "UTC-3:30" or "UTC". */
function offsetOf(zone: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
    .formatToParts(new Date())
    .find((part) => part.type === 'timeZoneName')?.value;
  return (name ?? 'GMT').replace('GMT', 'UTC');
}

/** Every zone the browser knows, under current names, with its region and label (computed once). */
export function zoneChoices(): ZoneChoice[] {
  if (choices) return choices;
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  choices = currentZoneNames(known).map((name) => {
    const region = zoneRegion(name);
    const place = (region ? name.slice(region.length + 1) : name).replaceAll('_', ' ').replaceAll('/', ' / ');
    return { name, region, label: `${place} (${offsetOf(name)})` };
  });
  return choices;
}
