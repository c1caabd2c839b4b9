"""Drives Calendar Desk's CalDAV server with Debian's python3-caldav, one step per call; prints JSON.

Usage: python_caldav.py URL LOGIN PASSWORD STEP [ARG...]. Errors of the library are reported, not raised, so
the test sees what the client saw.
"""
import json
import sys
from datetime import datetime, timezone

import caldav
from caldav.lib import error as dav_error

url, login, password, step, *args = sys.argv[1:]
client = caldav.DAVClient(url=url, username=login, password=password)


def calendar():
    calendars = client.principal().calendars()
    assert len(calendars) == 1, calendars
    return calendars[0]


def summaries(objects):
    out = []
    for obj in objects:
        obj.load()
        for component in obj.icalendar_instance.walk("VEVENT"):
            if component.get("RECURRENCE-ID") is None:
                out.append(str(component.get("SUMMARY")))
    return sorted(out)


def result(value):
    print(json.dumps(value))


try:
    if step == "ensure":
        principal = client.principal()
        if not principal.calendars():
            principal.make_calendar(name="events", cal_id="events")
        result({"calendars": len(principal.calendars())})
    elif step == "discover":
        principal = client.principal()
        cal = calendar()
        result({"principal": str(principal.url), "calendar": str(cal.url), "name": cal.name,
                "summaries": summaries(cal.events())})
    elif step == "range":
        start = datetime.fromisoformat(args[0]).replace(tzinfo=timezone.utc)
        end = datetime.fromisoformat(args[1]).replace(tzinfo=timezone.utc)
        result({"summaries": summaries(calendar().date_search(start, end, expand=False))})
    elif step == "create":
        event = calendar().save_event(args[0])
        event.load()
        result({"url": str(event.url), "data": event.data})
    elif step == "get":
        event = calendar().event_by_uid(args[0])
        result({"url": str(event.url), "data": event.data})
    elif step == "edit":
        event = calendar().event_by_uid(args[0])
        vevent = [c for c in event.icalendar_instance.walk("VEVENT") if c.get("RECURRENCE-ID") is None][0]
        vevent["SUMMARY"] = args[1]
        event.save()
        event.load()
        result({"data": event.data})
    elif step == "delete":
        calendar().event_by_uid(args[0]).delete()
        result({"deleted": True})
    elif step == "sync-start":
        collection = calendar().objects_by_sync_token(load_objects=True)
        result({"token": collection.sync_token, "summaries": summaries(collection.objects)})
    elif step == "sync-since":
        collection = calendar().objects_by_sync_token(sync_token=args[0], load_objects=False)
        changed = {}
        for obj in collection.objects:
            name = str(obj.url).rsplit("/", 1)[-1]
            try:
                obj.load()
                changed[name] = "present"
            except dav_error.NotFoundError:
                changed[name] = "gone"
        result({"token": collection.sync_token, "changed": changed})
    else:
        raise SystemExit(f"unknown step {step}")
except (dav_error.DAVError, dav_error.AuthorizationError) as exc:
    result({"error": type(exc).__name__, "message": str(exc)})
