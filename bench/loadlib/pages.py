"""What a script reads from the site's pages, with `html.parser` and no regular expressions.

The TO console marks each table or pod card with `data-table-id`, `data-table-number`,
`data-version` (what the report's 409 check compares) and `data-reported`, and the cards'
container with the round's `data-round`, `data-round-kind` and `data-round-status`; a pod's
seats are its winner buttons (`name="winner"`, the entry id as value), in seat order, which is
what the phone posts. The public standings are read cell by cell from their table.
"""

from dataclasses import dataclass
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
