"""
The independent reader of our exported .ics files: Debian's python3-icalendar parses the whole calendar and
python3-recurring-ical-events unfolds every series (RRULE, RDATE, EXDATE, RECURRENCE-ID overrides).

Usage: /usr/bin/python3 expandIcsFile.py FROM TO < calendar.ics
  FROM, TO  'YYYY-MM-DD' dates (TO exclusive)

Prints one line per occurrence, in order: 'START|SUMMARY|UID', START the UTC instant 'YYYY-MM-DD HH:MM:SS'
(all-day: the date then ' 00:00:00 all-day').
"""
import datetime
import sys

import icalendar
import pytz
import recurring_ical_events


def main():
    start = datetime.datetime.strptime(sys.argv[1], "%Y-%m-%d")
    stop = datetime.datetime.strptime(sys.argv[2], "%Y-%m-%d")
    calendar = icalendar.Calendar.from_ical(sys.stdin.read())
    rows = []
    for event in recurring_ical_events.of(calendar).between(start, stop):
        dt = event["DTSTART"].dt
        if isinstance(dt, datetime.datetime):
            if dt.tzinfo is None:
                dt = pytz.utc.localize(dt)
            when = dt.astimezone(pytz.utc).strftime("%Y-%m-%d %H:%M:%S")
        else:
            when = dt.strftime("%Y-%m-%d") + " 00:00:00 all-day"
        rows.append(when + "|" + str(event["SUMMARY"]) + "|" + str(event["UID"]))
    for row in sorted(rows):
        print(row)


main()
