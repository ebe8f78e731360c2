#!/usr/bin/env python3
"""Expands .ics files with recurring-ical-events: the independent side of CalendarComparisonTests.

usage: expand.py ZONE START END FILE...   (START, END: Unix seconds)

Prints one JSON object per occurrence that starts before END and ends after START (a little
wider than the window; the Swift test applies the exact window rule): uid, recurrence id,
start and end as Unix seconds (all-day dates and floating times placed in ZONE), and for all-day
occurrences the first and the day after the last as YYYY-MM-DD.
"""
import datetime
import json
import sys
import zoneinfo

import icalendar
import recurring_ical_events


def seconds(value, zone):
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=zone)
        return int(value.timestamp())
    return int(datetime.datetime.combine(value, datetime.time(0, 0), tzinfo=zone).timestamp())


def main():
    zone = zoneinfo.ZoneInfo(sys.argv[1])
    start = datetime.datetime.fromtimestamp(int(sys.argv[2]) - 3 * 86400, datetime.timezone.utc)
    end = datetime.datetime.fromtimestamp(int(sys.argv[3]) + 3 * 86400, datetime.timezone.utc)
    for path in sys.argv[4:]:
        with open(path, "rb") as handle:
            calendar = icalendar.Calendar.from_ical(handle.read())
        for event in recurring_ical_events.of(calendar).between(start, end):
            begin = event["DTSTART"].dt
            finish = event["DTEND"].dt if "DTEND" in event else begin
            all_day = not isinstance(begin, datetime.datetime)
            record = {
                "file": path.rsplit("/", 1)[-1],
                "uid": str(event.get("UID", "")),
                "summary": str(event.get("SUMMARY", "")),
                "start": seconds(begin, zone),
                "end": seconds(finish, zone),
            }
            if all_day:
                record["firstDay"] = begin.isoformat()
                record["endDay"] = finish.isoformat()
            print(json.dumps(record, sort_keys=True))


if __name__ == "__main__":
    main()
