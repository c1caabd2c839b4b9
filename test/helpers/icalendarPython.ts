import { execFile } from 'node:child_process';

/** What Debian's python3-icalendar read from a feed: each VEVENT's main fields and the VTIMEZONEs. */
export interface PythonIcsView {
  events: { uid: string; summary: string; start: string; tzid: string | null; url: string | null }[];
  timezones: string[];
}

const SCRIPT = `
import sys, json, icalendar
cal = icalendar.Calendar.from_ical(sys.stdin.read())
events = []
for ev in cal.walk('VEVENT'):
    start = ev.get('DTSTART')
    events.append({
        'uid': str(ev.get('UID')),
        'summary': str(ev.get('SUMMARY')),
        'start': start.dt.isoformat(),
        'tzid': start.params.get('TZID'),
        'url': str(ev.get('URL')) if ev.get('URL') is not None else None,
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
