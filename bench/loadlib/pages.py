"""What a script reads from the site's pages, with `html.parser` and no regular expressions.

The TO console marks each table or pod card with `data-table-id`, `data-table-number`,
`data-version` (what the report's 409 check compares) and `data-reported`, and the cards'
container with the round's `data-round`, `data-round-kind` and `data-round-status`; a pod's
seats are its winner buttons (`name="winner"`, the entry id as value), in seat order, which is
what the phone posts; a disputed card lists each version's "Use this" form; the console's
live part (`#console-live`) carries the address it polls, its ETag and `data-changed`. The public
standings are read cell by cell from their table. A player's "my event" page carries its ETag,
round and table number on its live section (`#my-live`), its seat, report and confirm forms.
"""

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Pod:
    table_id: int
    number: int
    round: int
    seats: list[int]  # entry ids in seat order
    version: int
    reported: bool


@dataclass
class Console:
    """The console's current Swiss round (None before the first, or in a top cut)."""

    round: int | None
    status: str  # "playing" or "complete"
    all_reported: bool  # the round's status line says every pod has a result
    pods: list[Pod]


class _ConsoleParser(HTMLParser):
    def __init__(self, round_number: int | None):
        super().__init__()
        self.round: int | None = round_number
        self.kind = self.status = ""
        self.all_reported = False
        self.pods: list[Pod] = []
        self.card: Pod | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-round" in attrs:
            self.round = int(attrs["data-round"])
            self.kind = attrs.get("data-round-kind") or ""
            self.status = attrs.get("data-round-status") or ""
        elif "data-table-id" in attrs:
            self.card = Pod(
                table_id=int(attrs["data-table-id"]),
                number=int(attrs["data-table-number"]),
                round=self.round or 0,
                seats=[],
                version=int(attrs["data-version"]),
                reported=attrs.get("data-reported") == "1",
            )
            self.pods.append(self.card)
        elif tag == "button" and self.card is not None and attrs.get("name") == "winner":
            self.card.seats.append(int(attrs["value"]))
        elif attrs.get("id") == "round-status":
            self.all_reported = "success" in (attrs.get("class") or "").split()

    def handle_endtag(self, tag):
        if tag == "article":
            self.card = None


def read_console(text: str) -> Console:
    parser = _ConsoleParser(None)
    parser.feed(text)
    parser.close()
    if parser.round is None or parser.kind != "swiss":
        return Console(None, "", False, [])
    return Console(parser.round, parser.status, parser.all_reported, parser.pods)


@dataclass
class Live:
    """The console's live part (`#console-live`): the address it polls, the ETag it sends, and
    whether it says the page's round is no longer the one to run (`data-changed`)."""

    url: str
    etag: str
    changed: bool


class _LiveParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.live: Live | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id") == "console-live":
            self.live = Live(
                url=attrs.get("hx-get") or "",
                etag=attrs.get("data-etag") or "",
                changed=attrs.get("data-changed") == "1",
            )


def read_live(text: str) -> Live | None:
    """The console's live part, from the page or from a poll's answer."""
    parser = _LiveParser()
    parser.feed(text)
    parser.close()
    return parser.live


def read_console_poll(text: str, round_number: int) -> Console:
    """A poll's answer for the console's round `round_number`, still playing: its cards and
    whether its status line says every pod has a result."""
    parser = _ConsoleParser(round_number)
    parser.feed(text)
    parser.close()
    return Console(round_number, "playing", parser.all_reported, parser.pods)


def read_cards(text: str, *, round_number: int = 0) -> list[Pod]:
    """The cards of any page or htmx fragment (a round's page, a report's answer)."""
    parser = _ConsoleParser(round_number)
    parser.feed(text)
    parser.close()
    return parser.pods


@dataclass
class StandingRow:
    rank: int
    tied: bool
    player: int  # the player's id, from the link to their page
    cells: list[str]  # the numeric cells: points, record, then each tiebreaker as shown

    def as_tuple(self):
        return (self.rank, self.tied, self.player, self.cells[0], self.cells[1], self.cells[2:])


class _StandingsParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows: list[StandingRow] = []
        self.row: dict | None = None
        self.cell: str | None = None  # the open cell's class
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr":
            self.row = {"rank": None, "player": None, "cells": []}
        elif tag == "td" and self.row is not None:
            self.cell, self.text = attrs.get("class") or "", []
        elif tag == "a" and self.cell == "name" and self.row["player"] is None:
            parts = [p for p in (attrs.get("href") or "").split("/") if p]
            if len(parts) >= 2 and parts[-2] == "players" and parts[-1].isdigit():
                self.row["player"] = int(parts[-1])

    def handle_data(self, data):
        if self.cell is not None:
            self.text.append(data)

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            text = "".join(self.text).strip()
            if self.cell == "rank":
                self.row["rank"] = text
            elif self.cell == "num":
                self.row["cells"].append(text)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            row, self.row = self.row, None
            rank = row["rank"]
            if rank and row["player"] is not None and len(row["cells"]) >= 2:
                self.rows.append(
                    StandingRow(
                        rank=int(rank.rstrip("=")),
                        tied=rank.endswith("="),
                        player=row["player"],
                        cells=row["cells"],
                    )
                )


def read_standings(text: str) -> list[StandingRow]:
    """An event's standings page, row by row (the header and empty rows left out)."""
    parser = _StandingsParser()
    parser.feed(text)
    parser.close()
    return parser.rows


@dataclass
class MyPage:
    """A player's "my event" page (or its live fragment), as their phone shows it: the ETag
    the page polls with, the round and their table's number and id, their seat, the seats'
    entries and names (the report form's winner buttons), whether the result is in, the
    reports they can confirm (report id, summary), and whether the table is disputed."""

    etag: str = ""
    round: int | None = None
    table_number: int | None = None
    table_id: int | None = None
    seat: int | None = None
    seats: list[tuple[int, str]] = field(default_factory=list)
    result: bool = False
    confirms: list[tuple[int, str]] = field(default_factory=list)
    disputed: bool = False


class _MyPageParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.page = MyPage()
        self.form: dict | None = None  # the open form's hidden inputs and buttons
        self.button: list | None = None  # the open button: [name, value, text parts]
        self.seat_label: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if attrs.get("id") == "my-live":
            self.page.etag = attrs.get("data-etag") or ""
            if attrs.get("data-round"):
                self.page.round = int(attrs["data-round"])
            if attrs.get("data-table"):
                self.page.table_number = int(attrs["data-table"])
        elif tag == "span" and "seat-label" in classes:
            self.seat_label = []
        elif "result-line" in classes:
            self.page.result = True
        elif "report-line" in classes and "disputed" in classes:
            self.page.disputed = True
        elif tag == "form":
            self.form = {"inputs": {}, "buttons": []}
        elif tag == "input" and self.form is not None and attrs.get("type") == "hidden":
            self.form["inputs"][attrs.get("name")] = attrs.get("value")
        elif tag == "button" and self.form is not None:
            self.button = [attrs.get("name"), attrs.get("value"), []]

    def handle_data(self, data):
        if self.button is not None:
            self.button[2].append(data)
        if self.seat_label is not None:
            self.seat_label.append(data)

    def handle_endtag(self, tag):
        if tag == "span" and self.seat_label is not None:
            text = "".join(self.seat_label).split()
            if len(text) == 2 and text[1].isdigit():
                self.page.seat = int(text[1])
            self.seat_label = None
        elif tag == "button" and self.button is not None and self.form is not None:
            name, value, text = self.button
            self.form["buttons"].append((name, value, " ".join("".join(text).split())))
            self.button = None
        elif tag == "form" and self.form is not None:
            inputs, buttons = self.form["inputs"], self.form["buttons"]
            if inputs.get("action") == "confirm" and buttons:
                summary = buttons[0][2].removeprefix("Confirm:").strip()
                self.page.confirms.append((int(inputs["report"]), summary))
            elif inputs.get("action") == "report" and inputs.get("table"):
                self.page.table_id = int(inputs["table"])
                winners = [(int(v), t) for n, v, t in buttons if n == "winner"]
                if winners:
                    self.page.seats = winners
            self.form = None


def read_my_event(text: str) -> MyPage:
    parser = _MyPageParser()
    parser.feed(text)
    parser.close()
    return parser.page


class _DisputeParser(HTMLParser):
    """The console's disputed tables: each version's accept form and its summary."""

    def __init__(self):
        super().__init__()
        self.table: int | None = None
        self.disputed = False
        self.in_versions = False  # inside a disputed card's list of versions
        self.action: str | None = None
        self.text: list[str] | None = None
        self.versions: dict[int, list[tuple[str, str]]] = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-table-id" in attrs:
            self.table, self.disputed = int(attrs["data-table-id"]), False
        elif attrs.get("data-report-state") is not None:
            self.disputed = attrs["data-report-state"] == "disputed"
        elif tag == "ul" and self.disputed and "versions" in (attrs.get("class") or "").split():
            self.in_versions = True
        elif tag == "form" and self.in_versions:
            self.action = attrs.get("action")
        elif tag == "button" and self.action is not None:
            self.text = []

    def handle_data(self, data):
        if self.text is not None:
            self.text.append(data)

    def handle_endtag(self, tag):
        if tag == "button" and self.text is not None:
            summary = " ".join("".join(self.text).split()).removeprefix("Use this:").strip()
            self.versions.setdefault(self.table, []).append((self.action, summary))
            self.text = None
        elif tag == "form":
            self.action = None
        elif tag == "ul":
            self.in_versions = False
        elif tag == "article":
            self.table, self.disputed = None, False


def read_disputes(text: str) -> dict[int, list[tuple[str, str]]]:
    """{table id: [(the accept form's action, the version's summary), ...]} of the console's
    disputed tables (each version's "Use this" button, report_views.report_accept)."""
    parser = _DisputeParser()
    parser.feed(text)
    parser.close()
    return parser.versions
