"""Reads for the tournament pages: the event, its rounds with tables and seats, standings.

Pod events read the same rows: a table is a pod, its seats in turn order (seat 1 goes first).
The reads the services share live beside this module: `standings` (history, standings,
tiebreakers) and `topcut` (the bracket); they are re-exported here. Selectors never import
the services.
"""

import hashlib
from dataclasses import dataclass

from django.db.models import Prefetch
from django.http import Http404
from django.utils.translation import gettext

from core.languages import store_activate
from core.search import sort_key
from core.zones import zone_activate
from leagues.services import store_time_zone

from ..domain import labels
from ..domain.standings import TIEBREAKERS
from ..models import Round, Seat, Table, Tournament
from ..permissions import can_run_event, event_is_visible
from .standings import (
    Standing,
    bye_rule,
    entry_ratings,
    gw_floor,
    history,
    omw_floor,
    points_scheme,
    standings,
    suggested_structure,
    tiebreakers,
)
from .topcut import top_cut_bracket, top_cut_bracket_create, top_cut_label, top_cut_seeds

__all__ = [  # the shared reads re-exported (the page reads below are public too)
    "Standing",
    "bye_rule",
    "entry_ratings",
    "gw_floor",
    "history",
    "omw_floor",
    "points_scheme",
    "standings",
    "suggested_structure",
    "tiebreakers",
    "top_cut_bracket",
    "top_cut_bracket_create",
    "top_cut_label",
    "top_cut_seeds",
]


def event_get(*, slug: str, user) -> Tournament:
    """The event if `user` may see it: its league is visible to them, or they judge it
    (404 otherwise, so nothing leaks). Every event page reads its event here, so here the
    store's time zone becomes the request's: every time on the page is the store's
    (core.zones)."""
    # Read by its slug, then checked (`event_is_visible`): one plain query for an event of a
    # public league, where the visible-events filter compiled a subquery on every page.
    event = Tournament.objects.select_related("league__organization").filter(slug=slug).first()
    if event is None or not event_is_visible(user, event):
        raise Http404("No such event.")
    zone_activate(store_time_zone(event.league.organization))
    store_activate(event.league.organization.language)
    return event


def can_run(user, event: Tournament) -> bool:
    return can_run_event(user, event)


def rounds_with_tables(event: Tournament):
    seats = Seat.objects.select_related("entry__player").order_by("position")
    tables = Table.objects.select_related("winner__player").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    return event.rounds.prefetch_related(Prefetch("tables", queryset=tables)).order_by("number")


def latest_round(event: Tournament) -> Round | None:
    """The event's last round, without its tables (the public pages read them with
    `round_board`)."""
    return event.rounds.order_by("-number").first()


@dataclass(slots=True)
class BoardSeat:
    """A seat as the public pages show it: plain values, no model behind them."""

    entry_id: int
    name: str
    position: int
    won: bool
    place_label: str
    deck: str


@dataclass(slots=True)
class BoardTable:
    pk: int
    number: int
    reported: bool
    is_draw: bool
    requested_bye: bool
    result_label: str
    full_order: bool
    seats: list[BoardSeat]
    extra_minutes: int = 0  # a judge's time extension

    @property
    def is_bye(self) -> bool:
        return len(self.seats) == 1


def round_board(round_: Round, decks: dict[str, str] | None = None) -> list[BoardTable]:
    """A round's tables in number order, each with its seats in turn order, from one query of
    plain values: what the pairings and the projector show (every visitor loads them when a
    round is posted; model instances for 256 seats cost more than the query). `decks` (player
    name -> deck, the public ones) fills each seat's deck."""
    decks = decks or {}
    rows = (
        Seat.objects.filter(table__round=round_)
        .order_by("table__number", "position")
        .values_list(
            "table_id",
            "table__number",
            "table__reported",
            "table__is_draw",
            "table__requested_bye",
            "table__game_draws",
            "table__winner_id",
            "table__extra_minutes",
            "entry_id",
            "entry__player__name",
            "position",
            "game_wins",
            "place",
        )
    )
    tables: list[BoardTable] = []
    wins: list[list] = []
    for (table_id, number, reported, is_draw, requested, draws, winner, extra, entry, name,
         position, game_wins, place) in rows:  # fmt: skip
        if not tables or tables[-1].pk != table_id:
            tables.append(
                BoardTable(table_id, number, reported, is_draw, requested, "", False, [], extra)
            )
            wins.append([draws])
        seat = BoardSeat(
            entry, name, position, winner == entry, labels.place_label(place, gettext), ""
        )
        if decks:
            seat.deck = decks.get(name, "")
        tables[-1].seats.append(seat)
        wins[-1].append((game_wins, place))
    for table, (draws, *seated) in zip(tables, wins, strict=True):
        table.result_label = labels.result_label(
            reported=table.reported,
            is_draw=table.is_draw,
            game_wins=[g for g, _ in seated],
            game_draws=draws,
            gettext=gettext,
        )
        table.full_order = labels.full_order([p for _, p in seated])
    return tables


@dataclass(slots=True)
class SeatFinder:
    name: str
    table: int
    seat: int
    opponents: list[str]


def seat_finder(tables: list[BoardTable]) -> list[SeatFinder]:
    """Every player of the round alphabetically: where they sit and against whom."""
    rows = []
    for table in tables:
        names = [seat.name for seat in table.seats]
        for i, seat in enumerate(table.seats):
            others = names[:i] + names[i + 1 :]
            rows.append(SeatFinder(seat.name, table.number, seat.position, others))
    rows.sort(key=lambda r: sort_key(r.name))
    return rows


@dataclass
class Structure:
    players: int  # registered and not dropped
    rounds: int  # Swiss rounds: as set, or as suggested for the field
    cut: int | None  # the suggested top cut (pods), None when there is no suggestion
    planned: bool  # the rounds are the event's own (set, or fixed at round 1)


def structure_get(event: Tournament) -> Structure:
    """How many Swiss rounds the event plays and, for pods, the top cut suggested for the
    players registered now (`podcut.suggested_structure`)."""
    players = event.entries.filter(dropped_after__isnull=True).count()
    rounds, cut = suggested_structure(event, players)
    if event.swiss_rounds:
        return Structure(players, event.swiss_rounds, cut, True)
    return Structure(players, rounds, cut, False)


@dataclass
class StandingLine:
    rank: int
    tied: bool
    player_id: int
    name: str
    points: float
    record: str
    metrics: list[str]
    dropped: bool


def standing_lines(event: Tournament) -> tuple[list[str], list[StandingLine]]:
    """Column labels and rows, tiebreakers formatted as people read them."""
    table = standings(event)
    names = dict(event.entries.values_list("player_id", "player__name"))
    precedence = [m for m in tiebreakers(event) if m != "points"]
    labels = [gettext(TIEBREAKERS[m].label) for m in precedence]  # N_-marked in the domain
    lines = []
    for row in table.rows:
        shown = [TIEBREAKERS[metric].show(row.metrics.get(metric)) for metric in precedence]
        lines.append(
            StandingLine(
                rank=row.rank,
                tied=row.tied,
                player_id=row.player,
                name=names.get(row.player, "?"),
                points=row.points,
                record=f"{row.wins + row.byes}-{row.losses}-{row.draws}",
                metrics=shown,
                dropped=row.dropped_after is not None,
            )
        )
    return labels, lines


@dataclass(frozen=True)
class MyStanding:
    """Where a player stands after the Swiss rounds played to the end: their points, their
    place ("3rd"), whether it is shared, the size of the field, and after which round."""

    after_round: int
    points: float
    record: str
    place: str
    tied: bool
    of: int


def my_standing(event: Tournament, entry) -> MyStanding | None:
    """`entry`'s line in the standings after the last complete Swiss round (None before
    round 1 ends): what their own page shows for the whole event and after, seated in the
    open round or not (dropped, outside the top cut). Only complete rounds count, so the
    line moves when a round ends, as the page's own version does (page_versions), not with
    each result at another table."""
    after = None
    swiss = event.rounds.filter(kind=Round.Kind.SWISS).order_by("number")
    for number, status in swiss.values_list("number", "status"):
        if status != Round.Status.COMPLETE:
            break
        after = number
    if after is None:
        return None
    # The field is who was in by then: late entries joining after round `after` have not
    # played and are not counted in "of 16" (issue 43).
    table = standings(event, history(event, before=after + 1), entered_by=after)
    row = next((r for r in table.rows if r.player == entry.player_id), None)
    if row is None:
        return None
    return MyStanding(
        after_round=after,
        points=row.points,
        record=f"{row.wins + row.byes}-{row.losses}-{row.draws}",
        place=labels.place_label(row.rank, gettext),
        tied=row.tied,
        of=len(table.rows),
    )


@dataclass
class BracketMatch:
    """A top-cut match or pod: its players as (seed, name), better seed first for 1v1 and in
    seat order for pods; `winner` is who advanced (at a drawn pod: its best seed)."""

    players: list[tuple[int, str]]
    winner: str | None
    draw: bool = False


@dataclass
class Bracket:
    columns: list[tuple[str, list[BracketMatch]]]  # each stage's label and matches or pods
    champion: str | None


def bracket_get(event: Tournament) -> Bracket:
    """The top cut by stage ("Quarterfinals", ... or "Semifinal pods", "Final pod"), with
    the stages still to come empty, and the champion once there is one."""
    if not event.top_cut or not event.rounds.filter(kind=Round.Kind.TOP_CUT).exists():
        return Bracket([], None)
    bracket = top_cut_bracket(event)
    names = dict(event.entries.values_list("player_id", "player__name"))
    played = list(rounds_with_tables(event).filter(kind=Round.Kind.TOP_CUT).order_by("number"))
    stages = event.play.bracket_stages(event.top_cut)
    columns = []
    for index, count in enumerate(stages):
        matches = []
        if index < len(played):
            for table in played[index].tables.all():
                players = [s.entry.player_id for s in table.seats.all()]
                advanced = table.winner.player_id if table.winner_id else None
                if table.reported and table.is_draw:  # a drawn pod: the best seed goes on
                    advanced = bracket.advancer(tuple(players), None)
                matches.append(
                    BracketMatch(
                        players=[(bracket.seed(p), names[p]) for p in players],
                        winner=names[advanced] if advanced else None,
                        draw=table.reported and table.is_draw,
                    )
                )
        else:
            matches = [BracketMatch(players=[], winner=None) for _ in range(count)]
        columns.append((top_cut_label(event, bracket, index), matches))
    champion = bracket.champion
    return Bracket(columns, names[champion] if champion is not None else None)


@dataclass
class PlayerRound:
    number: int
    label: str
    table: int
    opponents: list[str]
    result: str  # "win", "loss", "draw", "bye", "bye ½" (requested) or "playing"
    games: str
    points: float | None
    seat: int | None = None  # pods: the turn order (1 goes first)
    place: str = ""  # pods with a full finishing order: "1st", "2nd", ...


def player_history(event: Tournament, entry) -> list[PlayerRound]:
    """Every round `entry` was seated in, oldest first (one query)."""
    scheme = points_scheme(event)
    seats = (
        Seat.objects.filter(entry=entry)
        .select_related("table__round")
        .prefetch_related(
            Prefetch(
                "table__seats",
                queryset=Seat.objects.select_related("entry__player").order_by("position"),
            )
        )
        .order_by("round__number")
    )
    rows = []
    for seat in seats:
        table = seat.table
        others = [s for s in table.seats.all() if s.entry_id != entry.pk]
        round_ = table.round
        label = round_.label
        if not others and table.requested_bye:
            result, points = "bye ½", scheme.requested_bye_points
        elif not others:
            result, points = "bye", scheme.bye
        elif not table.reported:
            result, points = "playing", None
        elif table.is_draw:
            result, points = "draw", scheme.draw
        else:
            won = table.winner_id == entry.pk
            result, points = ("win", scheme.win) if won else ("loss", scheme.loss)
        if round_.kind == Round.Kind.TOP_CUT:
            points = None  # the cut decides the champion, not points
        games = ""
        if others and seat.game_wins is not None:
            games = "\u2013".join(str(s.game_wins) for s in [seat, *others])
            if table.game_draws:
                games += f"\u2013{table.game_draws}"
        pod = event.play.shows_seats and bool(others)
        rows.append(
            PlayerRound(
                number=round_.number,
                label=label,
                table=table.number,
                opponents=[s.entry.player.name for s in others],
                result=result,
                games=games,
                points=points,
                seat=seat.position if pod else None,
                place=seat.place_label if pod and table.has_full_order else "",
            )
        )
    return rows


def seating_key(seats) -> str:
    """A short fingerprint of who sits where in a round, from its (table number, position,
    entry id) triples in any order: the console's edit forms carry it, so a second tap of
    "Swap" (which would swap the players back) is recognised as a repeat."""
    text = ";".join(f"{t}.{p}:{e}" for t, p, e in sorted(seats))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def round_seating_key(round_: Round) -> str:
    """`seating_key` of a round as stored now."""
    seats = Seat.objects.filter(round=round_)
    return seating_key(seats.values_list("table__number", "position", "entry_id"))
