"""The paper pack's reads: the event's current round as its printed sheets show it (the
pairings by table, the wall's "find your seat" by last name, a result slip per table with the
time its players' time is up, extension included) and the tables still waiting for a result.

The round is read once (`round_board`: one query of plain values, whatever the field's size);
the standings are the standings page's own (`standing_lines`), read by the view. Times are in
the store's time zone, as the console shows them, and the sheets name it: the pack is printed
and kept on a phone, read away from the page that made it.
"""

from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from core.zones import zone_label
from leagues.services import store_time_zone

from ..domain import clock
from ..domain.paper import last_name_key, wall_name
from ..formats import SlipBoxes
from ..models import Round, Tournament
from . import BoardSeat, latest_round, round_board


@dataclass(slots=True)
class PaperTable:
    """A table (pod) of the round with its players in seat order, its time extension, when
    its time is up (None without a clock) and its slip's boxes."""

    number: int
    seats: list[BoardSeat]
    reported: bool
    extra_minutes: int
    time_up: datetime | None
    slip: SlipBoxes


@dataclass(slots=True)
class WallRow:
    """A line of the wall sheet: the name split at its last word, and where the player sits
    (`table` None: a bye; `requested`: a bye they asked for)."""

    last: str
    rest: str
    letter: str
    table: int | None
    seat: int
    requested: bool = False


@dataclass
class PaperPack:
    event: Tournament
    round: Round | None
    round_label: str = ""
    ends_at: datetime | None = None  # the round's clock, in the store's time zone
    tables: list[PaperTable] = field(default_factory=list)  # two seats or more, by number
    byes: list[tuple[str, bool]] = field(default_factory=list)  # (name, requested)
    wall: list[WallRow] = field(default_factory=list)  # every seated player, by last name
    printed_at: datetime | None = None
    zone_label: str = ""  # the store's time zone as the sheets name it: "New York time"

    @property
    def missing(self) -> list[PaperTable]:
        """The tables still waiting for a result."""
        return [t for t in self.tables if not t.reported]

    @property
    def extended(self) -> bool:
        """Whether any table plays on past the round's clock (the sheets then show a time
        per table)."""
        return any(t.extra_minutes for t in self.tables)


def paper_pack(event: Tournament) -> PaperPack:
    """The current (latest) round's sheets; an event not paired yet has none."""
    zone = store_time_zone(event.league.organization)
    now = timezone.localtime(timezone=zone)
    round_ = latest_round(event)
    if round_ is None:
        return PaperPack(event, None, printed_at=now, zone_label=zone_label(zone))
    ends_at = timezone.localtime(round_.ends_at, zone) if round_.ends_at else None
    play = event.play
    pack = PaperPack(
        event, round_, round_.label, ends_at, printed_at=now, zone_label=zone_label(zone)
    )
    for board in round_board(round_):
        if board.is_bye:
            pack.byes.append((board.seats[0].name, board.requested_bye))
            continue
        time_up = clock.time_up(ends_at, board.extra_minutes)
        pack.tables.append(
            PaperTable(
                board.number,
                board.seats,
                board.reported,
                board.extra_minutes,
                time_up,
                play.slip(len(board.seats)),
            )
        )
    rows = [
        (seat.name, table.number, seat.position, False)
        for table in pack.tables
        for seat in table.seats
    ]
    rows += [(name, None, 1, requested) for name, requested in pack.byes]
    rows.sort(key=lambda row: last_name_key(row[0]))
    for name, number, position, requested in rows:
        split = wall_name(name)
        pack.wall.append(WallRow(split.last, split.rest, split.letter, number, position, requested))
    return pack
