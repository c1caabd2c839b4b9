/**
 * Time zone names as people know them today. ICU (Node's and Chromium's Intl) still reports some zones under
 * names that the IANA database renamed years ago (Intl.supportedValuesOf('timeZone') lists Asia/Calcutta, not
 * Asia/Kolkata): the app shows and stores the current name. Both names are valid IANA zones, so either is
 * accepted from the API; this only picks what to offer and what a new calendar starts with.
 */
const CURRENT_NAMES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Europe/Uzhgorod': 'Europe/Kyiv',
  'Europe/Zaporozhye': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Etc/UTC': 'UTC',
  'Etc/GMT': 'UTC',
};

/** The current IANA name of a zone (Asia/Calcutta → Asia/Kolkata); other names unchanged. */
export function currentZoneName(name: string): string {
  return CURRENT_NAMES[name] ?? name;
}

/** Every zone Intl knows, under current names, sorted, without duplicates; UTC first. */
export function currentZoneNames(known: readonly string[]): string[] {
  const names = new Set(known.map(currentZoneName));
  names.delete('UTC');
  return ['UTC', ...[...names].sort()];
}

/** The region of a zone, for grouping a picker: "Europe" for Europe/Rome, "" for UTC. */
export function zoneRegion(name: string): string {
  const slash = name.indexOf('/');
  return slash === -1 ? '' : name.slice(0, slash);
}

/**
 * The zone a new calendar starts with, from what Intl reported for this machine (read before the engine pins
 * TZ to UTC): its current name; UTC where the machine does not know (ICU answers Etc/Unknown, or nothing) or
 * `isValid` refuses it (CONTRACT §3).
 */
export function knownZone(reported: string | undefined, isValid: (zone: string) => boolean): string {
  if (!reported || reported === 'Etc/Unknown') return 'UTC';
  const current = currentZoneName(reported);
  return isValid(current) ? current : isValid(reported) ? reported : 'UTC';
}
