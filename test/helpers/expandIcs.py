"""
The independent expander of our recurrence tests: Debian's python3-recurring-ical-events (with python3-icalendar
and dateutil) unfolds the one VEVENT of the .ics read from stdin.

Usage: /usr/bin/python3 expandIcs.py ZONE UNTIL_LOCAL < series.ics
  ZONE         the series' IANA zone (occurrences in other zones are converted to it)
  UNTIL_LOCAL  'YYYY-MM-DD HH:MM:SS' wall clock in ZONE: the last moment an occurrence may start (inclusive)

Prints one line per occurrence start, in order: the wall clock as the expander holds it in ZONE and the UTC
instant, 'YYYY-MM-DD HH:MM:SS|YYYY-MM-DD HH:MM:SS' (all-day: the date, '00:00:00', and '-' for the instant).
"""
import datetime
import sys

import icalendar
import pytz
import recurring_ical_events

SQL = "%Y-%m-%d %H:%M:%S"


def main():
    zone_name, until_local = sys.argv[1], sys.argv[2]
    zone = pytz.timezone(zone_name)
    calendar = icalendar.Calendar.from_ical(sys.stdin.read())
    start = calendar.walk("VEVENT")[0]["DTSTART"].dt
    # Naive bounds are read in the event's zone; the stop is exclusive, so one second past the last start.
    stop = datetime.datetime.strptime(until_local, SQL) + datetime.timedelta(seconds=1)
    first = datetime.datetime(start.year, start.month, start.day)
    rows = []
    for event in recurring_ical_events.of(calendar).between(first, stop):
        dt = event["DTSTART"].dt
        if not isinstance(dt, datetime.datetime):
            rows.append((dt.strftime("%Y-%m-%d") + " 00:00:00", "-"))
            continue
        if dt.tzinfo is None:
            dt = zone.localize(dt)
        # pytz keeps the wall clock the expander computed (a spring-forward gap time stays as written) when the
        # zone is already the series' one; other zones (a UTC RDATE) are converted.
        if getattr(dt.tzinfo, "zone", None) != zone_name:
            dt = dt.astimezone(zone)
        rows.append((dt.strftime(SQL), dt.astimezone(pytz.utc).strftime(SQL)))
    for wall, utc in sorted(rows, key=lambda row: (row[1], row[0])):
        print(wall + "|" + utc)


main()
