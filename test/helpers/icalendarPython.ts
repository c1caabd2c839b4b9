import { execFile } from 'node:child_process';

/** What Debian's python3-icalendar read from a feed: each VEVENT's main fields and the VTIMEZONEs. */
export interface PythonIcsView {
  events: {
    uid: string;
    summary: string;
    start: string;
    tzid: string | null;
    url: string | null;
    description: string | null;
    /** X-ALT-DESC's value and FMTTYPE. */
    altDesc: { fmttype: string | null; value: string } | null;
    geo: { lat: number; lng: number } | null;
    organizer: { cn: string | null; value: string } | null;
    status: string | null;
    /** Every X-CALENDAR-DESK-* property: its values, in order. */
    desk: Record<string, string[]>;
  }[];
  timezones: string[];
}

const SCRIPT = `
import sys, json, icalendar
cal = icalendar.Calendar.from_ical(sys.stdin.read())
events = []
def desk(ev):
    found = {}
    for name, value in ev.property_items(recursive=False):
        if name.startswith('X-CALENDAR-DESK-'):
            values = value if isinstance(value, list) else [value]
            for v in values:
                found.setdefault(name, []).append(str(v))
    return found
for ev in cal.walk('VEVENT'):
    start = ev.get('DTSTART')
    events.append({
        'uid': str(ev.get('UID')),
        'summary': str(ev.get('SUMMARY')),
        'start': start.dt.isoformat(),
        'tzid': start.params.get('TZID'),
        'url': str(ev.get('URL')) if ev.get('URL') is not None else None,
        'description': str(ev.get('DESCRIPTION')) if ev.get('DESCRIPTION') is not None else None,
        'altDesc': {'fmttype': ev.get('X-ALT-DESC').params.get('FMTTYPE'), 'value': str(ev.get('X-ALT-DESC'))}
            if ev.get('X-ALT-DESC') is not None else None,
        'geo': {'lat': ev.get('GEO').latitude, 'lng': ev.get('GEO').longitude} if ev.get('GEO') is not None else None,
        'organizer': {'cn': ev.get('ORGANIZER').params.get('CN'), 'value': str(ev.get('ORGANIZER'))}
            if ev.get('ORGANIZER') is not None else None,
        'status': str(ev.get('STATUS')) if ev.get('STATUS') is not None else None,
        'desk': desk(ev),
    })
print(json.dumps({'events': events, 'timezones': [str(tz.get('TZID')) for tz in cal.walk('VTIMEZONE')]}))
`;

/** Parses iCalendar text with the independent parser (Debian's package, not the pyenv shim's Python). */
export async function parseWithPythonIcalendar(text: string): Promise<PythonIcsView> {
  const child = execFile('/usr/bin/python3', ['-c', SCRIPT], { maxBuffer: 64 * 1024 * 1024 });
  child.stdin!.end(text);
  const output = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`python3-icalendar: ${err}`))));
  });
  return JSON.parse(output) as PythonIcsView;
}
