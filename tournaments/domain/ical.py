"""One event as an iCalendar file (RFC 5545), for "Add to calendar".

Written by hand rather than with a library: a VCALENDAR holding one VEVENT of eight
properties needs only the text escaping of §3.3.11 and the line folding of §3.1, both below,
and no new dependency. Times are written in UTC with a "Z" (§3.3.5 form #2), which every
calendar reads without a VTIMEZONE block; an event with no start time is a whole-day event
(`DTSTART;VALUE=DATE`, §3.6.1: its DTEND is the next day).
"""

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

PRODID = "-//Guildhall//Events//EN"
LINE_OCTETS = 75  # §3.1: lines SHOULD NOT be longer than 75 octets, excluding the CRLF


@dataclass(frozen=True)
class CalendarEvent:
    uid: str  # stable: the same event gives the same UID, so a second import updates it
    summary: str
    start: datetime | date  # an aware datetime, or a date for a whole-day event
    end: datetime | date
    stamp: datetime  # aware: when the file was made (DTSTAMP, required)
    url: str = ""
    location: str = ""
    description: str = ""


def escape_text(value: str) -> str:
    """§3.3.11 TEXT: backslash, semicolon and comma escaped, a newline as \\n."""
    value = value.replace("\r\n", "\n").replace("\r", "\n")
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return value.replace("\n", "\\n")


def fold(line: str) -> str:
    """§3.1: split a content line into parts of at most 75 octets (UTF-8), each continuation
    starting with one space; a character's bytes are never split."""
    parts, current, size = [], [], 0
    limit = LINE_OCTETS
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            parts.append("".join(current))
            current, size = [], 0
            limit = LINE_OCTETS - 1  # the leading space counts
        current.append(char)
        size += width
    parts.append("".join(current))
    return "\r\n ".join(parts)


def _utc(value: datetime) -> str:
    if value.tzinfo is None:
        raise ValueError("Calendar times must be aware datetimes.")
    return value.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _when(name: str, value: datetime | date) -> str:
    if isinstance(value, datetime):
        return f"{name}:{_utc(value)}"
    return f"{name};VALUE=DATE:{value:%Y%m%d}"


def calendar_text(event: CalendarEvent) -> str:
    """The .ics file's text, CRLF line ends, folded."""
    if isinstance(event.start, datetime) != isinstance(event.end, datetime):
        raise ValueError("An event starts and ends both with a time, or both as whole days.")
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "BEGIN:VEVENT",
        f"UID:{escape_text(event.uid)}",
        f"DTSTAMP:{_utc(event.stamp)}",
        _when("DTSTART", event.start),
        _when("DTEND", event.end),
        f"SUMMARY:{escape_text(event.summary)}",
    ]
    if event.location:
        lines.append(f"LOCATION:{escape_text(event.location)}")
    if event.description:
        lines.append(f"DESCRIPTION:{escape_text(event.description)}")
    if event.url:
        lines.append(f"URL:{event.url}")  # a URI value: not TEXT, so not escaped (§3.3.13)
    lines += ["END:VEVENT", "END:VCALENDAR"]
    return "".join(fold(line) + "\r\n" for line in lines)


def whole_day_end(day: date) -> date:
    """A whole-day event's DTEND: the day after (exclusive, §3.6.1)."""
    return day + timedelta(days=1)
