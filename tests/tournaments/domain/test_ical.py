"""The calendar file (tournaments.domain.ical) against RFC 5545: every line at most 75 octets
and CRLF-ended, continuation lines start with a space, TEXT escaped (§3.3.11), times in UTC
with a Z. Read back with a small reader written here from the RFC, not from the writer."""

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from tournaments.domain.ical import CalendarEvent, calendar_text, escape_text, fold

STAMP = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)


def read(text: str) -> list[tuple[str, dict, str]]:
    """(name, parameters, value) per content line: unfold (§3.1: CRLF + one space or tab
    continues the line), split the name and parameters from the value at the first ':'."""
    assert text.endswith("\r\n")
    unfolded = text.replace("\r\n ", "").replace("\r\n\t", "")
    lines = []
    for line in unfolded.split("\r\n")[:-1]:
        head, value = line.split(":", 1)
        name, *params = head.split(";")
        lines.append((name, dict(p.split("=", 1) for p in params), value))
    return lines


def unescape(value: str) -> str:
    out, chars = [], iter(value)
    for c in chars:
        if c == "\\":
            nxt = next(chars)
            out.append("\n" if nxt in "nN" else nxt)
        else:
            assert c not in ",;", f"unescaped {c!r} in TEXT"
            out.append(c)
    return "".join(out)


def event(**kw) -> CalendarEvent:
    values = {
        "uid": "event-7@guildhall.test",
        "summary": "Friday cEDH; pods, top 4",
        "start": datetime(2026, 12, 4, 19, 0, tzinfo=ZoneInfo("Europe/Paris")),
        "end": datetime(2026, 12, 4, 23, 0, tzinfo=ZoneInfo("Europe/Paris")),
        "stamp": STAMP,
        "url": "https://guildhall.test/events/friday-cedh/",
        "location": "Dragon's Den — back room, 2nd floor",
        "description": "Pods at Dragon's Den.\nEntry: €10.",
    }
    return CalendarEvent(**(values | kw))


def test_one_event_reads_back_with_its_times_in_utc():
    lines = read(calendar_text(event()))
    props = {name: (params, value) for name, params, value in lines}
    assert [n for n, _, _ in lines][:2] == ["BEGIN", "VERSION"]
    assert [v for n, _, v in lines if n in ("BEGIN", "END")] == [
        "VCALENDAR",
        "VEVENT",
        "VEVENT",
        "VCALENDAR",
    ]
    # 19:00 in Paris in December (UTC+1) is 18:00 UTC.
    assert props["DTSTART"] == ({}, "20261204T180000Z")
    assert props["DTEND"] == ({}, "20261204T220000Z")
    assert props["DTSTAMP"] == ({}, "20261127T090000Z")
    assert unescape(props["SUMMARY"][1]) == "Friday cEDH; pods, top 4"
    assert unescape(props["LOCATION"][1]) == "Dragon's Den — back room, 2nd floor"
    assert unescape(props["DESCRIPTION"][1]) == "Pods at Dragon's Den.\nEntry: €10."
    assert props["URL"][1] == "https://guildhall.test/events/friday-cedh/"
    assert props["UID"][1] == "event-7@guildhall.test"


def test_a_summer_time_start_moves_by_two_hours():
    text = calendar_text(
        event(
            start=datetime(2026, 7, 3, 19, 0, tzinfo=ZoneInfo("Europe/Paris")),
            end=datetime(2026, 7, 3, 20, 0, tzinfo=ZoneInfo("Europe/Paris")),
        )
    )
    assert "DTSTART:20260703T170000Z\r\n" in text


def test_an_event_without_a_time_is_a_whole_day():
    text = calendar_text(event(start=date(2026, 12, 4), end=date(2026, 12, 5)))
    props = {name: (params, value) for name, params, value in read(text)}
    assert props["DTSTART"] == ({"VALUE": "DATE"}, "20261204")
    assert props["DTEND"] == ({"VALUE": "DATE"}, "20261205")


def test_long_lines_fold_at_75_octets_without_splitting_a_character():
    name = "Ω" * 60 + " Friday " + "é" * 50  # two-byte characters across the fold
    text = calendar_text(event(summary=name, description="x" * 400))
    for line in text.split("\r\n")[:-1]:
        assert len(line.encode("utf-8")) <= 75
        line.encode("utf-8").decode("utf-8")  # no character cut in two
    props = {n: v for n, _, v in read(text)}
    assert unescape(props["SUMMARY"]) == name
    assert unescape(props["DESCRIPTION"]) == "x" * 400


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("a,b", "a\\,b"),
        ("a;b", "a\\;b"),
        ("back\\slash", "back\\\\slash"),
        ("two\nlines", "two\\nlines"),
        ("crlf\r\nline", "crlf\\nline"),
    ],
)
def test_text_escaping(raw, escaped):
    assert escape_text(raw) == escaped


def test_a_short_line_is_not_folded():
    assert fold("SUMMARY:short") == "SUMMARY:short"


def test_naive_times_are_refused():
    with pytest.raises(ValueError, match="aware"):
        calendar_text(event(start=datetime(2026, 12, 4, 19), end=datetime(2026, 12, 4, 20)))


def test_a_time_and_a_whole_day_do_not_mix():
    with pytest.raises(ValueError):
        calendar_text(event(end=date(2026, 12, 5)))


def test_the_end_follows_the_start():
    start = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)
    text = calendar_text(event(start=start, end=start + timedelta(minutes=240)))
    assert "DTEND:20261204T230000Z" in text
