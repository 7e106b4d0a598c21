"""Reads for the TO console: its round as the cards read it (the seats as plain rows), and its
on-demand pieces: the players a pairing edit may pick, the store's names suggested while
registering, and one table's card after a tap.

The console page itself carries neither list (a 256-player event made it three 256-option
selects and a datalist of every player of the store): htmx fetches them when the TO opens the
edit or types a name, as plain `(id, name)` rows or names rather than model instances.
"""

from dataclasses import dataclass
from datetime import datetime

from django.contrib.postgres.aggregates import ArrayAgg
from django.db.models import Exists, F, OuterRef, Prefetch, Q, Value, prefetch_related_objects
from django.utils.translation import gettext

from audit.models import AuditEntry
from core.search import folded_order, name_contains
from leagues.models import Player

from .. import hooks
from ..actions import Action
from ..domain import labels
from ..models import Entry, Round, Seat, Table, Tournament

NAME_SUGGESTIONS = 20  # names offered under the register field while typing


@dataclass(frozen=True)
class CardNote:
    """A line another room puts on a table's card (the judges' desk: an open judge call).
    `since`: a moment the card counts minutes from ("· 2 min"), kept fresh by console.js
    between the live part's answers."""

    kind: str  # its CSS class
    text: str
    since: datetime | None = None


def card_notes(tables: list) -> None:
    """Give each card its notes (`table.notes`, in the readers' order)."""
    for table in tables:
        table.notes = []
    if not tables or not hooks.card_notes:
        return
    by_id = {table.pk: table for table in tables}
    for table_id, notes in hooks.card_notes(tables).items():
        if table_id in by_id:
            by_id[table_id].notes.extend(notes)


def card_note_scopes(event_id: int) -> list:
    """The page scopes of the cards' notes (tournaments.hooks.card_note_scopes)."""
    return hooks.card_note_scopes(event_id)


def entry_lines(
    event: Tournament, *, after_round: int = 0, entry_id: int | None = None
) -> list[dict]:
    """The console's player list, by name: each entry's `pk`, `name`, `joined_round`,
    `dropped_after`, `seated` (has sat at a table, so "remove" is not offered) and
    `bye_rounds` (the requested byes still to come, after round `after_round`) and
    `dropped_by_player` (their drop standing now is one they made from their own page,
    `services.entry_drop_self`), as plain rows in one query; only entry `entry_id`'s if
    given."""
    entries = event.entries.all() if entry_id is None else event.entries.filter(pk=entry_id)
    own_drop = AuditEntry.objects.filter(
        action=Action.ENTRY_DROP,
        object_type="entry",
        object_id=OuterRef("pk"),
        reverted_by__isnull=True,
        after__by_player=True,
    )
    return list(
        entries.annotate(
            name=F("player__name"),
            seated=Exists(Seat.objects.filter(entry=OuterRef("pk"))),
            dropped_by_player=Exists(own_drop),
            bye_rounds=ArrayAgg(
                "requested_byes__round_number",
                filter=Q(requested_byes__round_number__gt=after_round),
                order_by="requested_byes__round_number",
                default=Value([]),
            ),
        )
        .order_by(*folded_order("player__name"))
        .values(
            "pk",
            "name",
            "joined_round",
            "dropped_after",
            "seated",
            "bye_rounds",
            "dropped_by_player",
        )
    )


def edit_choices(event: Tournament) -> list[tuple[int, str]]:
    """(entry id, name) of every player still in the event, by name: whom an edit may pick."""
    return list(
        event.entries.filter(dropped_after__isnull=True)
        .order_by(*folded_order("player__name"))
        .values_list("pk", "player__name")
    )


def name_suggestions(event: Tournament, text: str, *, limit: int = NAME_SUGGESTIONS) -> list[str]:
    """Up to `limit` of the store's players whose name contains `text` (accents and case
    aside: "zoe" finds Zoë, core.search), by name, leaving out those already registered for
    `event`; nothing for a blank `text`."""
    text = text.strip()
    if not text:
        return []
    registered = Entry.objects.filter(tournament=event, player=OuterRef("pk"))
    players = Player.objects.filter(organization_id=event.league.organization_id)
    return list(
        name_contains(players, "name", text)
        .exclude(Exists(registered))
        .order_by(*folded_order("name"))
        .values_list("name", flat=True)[:limit]
    )


def _card_seats() -> Prefetch:
    seats = Seat.objects.select_related("entry__player").order_by("position")
    return Prefetch("seats", queryset=seats)


def table_card(table_id: int) -> Table:
    """One table as its card shows it: its round and seats (in seat order) with their
    players, in two queries whatever the size of the round."""
    table = Table.objects.select_related("round").prefetch_related(_card_seats()).get(pk=table_id)
    card_notes([table])
    return table


def table_seats_read(table: Table) -> None:
    """Read a table's seats with their players into `table` (one query), for its card."""
    prefetch_related_objects([table], _card_seats())


def unreported_numbers(round_id: int) -> list[int]:
    """The numbers of the round's tables still waiting for a result (the status line)."""
    return list(
        Table.objects.filter(round_id=round_id, reported=False)
        .order_by("number")
        .values_list("number", flat=True)
    )


_CARD_SEAT_FIELDS = (
    "table_id",
    "entry_id",
    "position",
    "game_wins",
    "place",
    "id",
    "entry__player_id",
    "entry__player__name",
)


def seats_of(table) -> list:
    """A table's seats: the rows `console_round` read, else `table.seats.all()`. The console
    reads each table's seats several times (cards, byes, seating key, reports), and each
    `table.seats` makes a related manager: 400 of them were an eighth of a 256-player
    console's time."""
    rows = table.__dict__.get("seat_rows")
    return rows if rows is not None else table.seats.all()


def console_round(event: Tournament, number: int | None = None) -> Round | None:
    """The event's round `number` (default: its latest) with its tables (by number) and their
    seats (in seat order) with each seat's player name, in three queries: the round and its
    tables as models, the seats as plain rows (`SeatRow`), only the columns the console's
    cards read. Each table's `seats.all()` and the round's `tables.all()` are then lists:
    model instances for 512 seats, their entries and their players were half the console's
    time (bench/pages.py)."""
    rounds = event.rounds.all()
    if number is not None:
        rounds = rounds.filter(number=number)
    round_ = rounds.order_by("-number").first()
    if round_ is None:
        return None
    tables = list(round_.tables.order_by("number"))
    by_table: dict[int, list[SeatRow]] = {t.pk: [] for t in tables}
    rows = (
        Seat.objects.filter(table_id__in=list(by_table))
        .order_by("position")
        .values_list(*_CARD_SEAT_FIELDS)
    )
    for table_id, entry_id, position, game_wins, place, seat_id, player_id, name in rows:
        by_table[table_id].append(
            SeatRow(seat_id, entry_id, position, game_wins, place, player_id, name, table_id)
        )
    for table in tables:
        table.round = round_
        table._prefetched_objects_cache = {"seats": by_table[table.pk]}
        table.seat_rows = by_table[table.pk]  # for seats_of
    round_._prefetched_objects_cache = {"tables": tables}
    return round_


class SeatPlayer:
    """A seat's player as the console reads it: `pk`/`id` and `name`."""

    __slots__ = ("id", "name", "pk")

    def __init__(self, pk: int, name: str):
        self.pk = self.id = pk
        self.name = name

    def __str__(self) -> str:
        return self.name


class SeatEntry:
    """A seat's entry as the console reads it: `pk`/`id`, `player_id` and `player`."""

    __slots__ = ("id", "pk", "player", "player_id")

    def __init__(self, pk: int, player: SeatPlayer):
        self.pk = self.id = pk
        self.player_id = player.pk
        self.player = player


class SeatRow:
    """A seat as the console's cards, report states and forms read it (`Seat`'s names for the
    same values), made from one row of `console_round`'s seat query."""

    __slots__ = ("entry", "entry_id", "game_wins", "id", "pk", "place", "position", "table_id")

    def __init__(self, pk, entry_id, position, game_wins, place, player_id, name, table_id):
        self.pk = self.id = pk
        self.entry_id = entry_id
        self.position = position
        self.game_wins = game_wins
        self.place = place
        self.entry = SeatEntry(entry_id, SeatPlayer(player_id, name))
        self.table_id = table_id

    @property
    def place_label(self) -> str:
        return labels.place_label(self.place, gettext)
