"""A points season: every event pays points by its type's table, and a player's best finishes count.

A `Season` names its event types, each with a `PointTable`, and the tie-break rules of its
table. `season_table(season, events)` takes the season's events (each a `SeasonEvent`: its
type, its number of players and every player's `Finish`) and returns one `SeasonRow` per
player, best first. The table is the pure replay of its events: the same events give the same
table whatever order the events, or the finishes inside an event, arrive in.

A point table pays a finish:
- **placing points** by rows, each written as the lowest place it covers ("1", "2", "4", "8",
  "32": the "4" row pays 3rd-4th, the "32" row 9th-32nd). A row may be a **kicker**: it pays
  only when the event has *more than* `more_than` players; below that size those places earn
  no placing points (they do not fall to another row). Play! Pokémon writes its kickers as
  the attendance an event must *reach* ("Kicker (# of participants) 21"): that is
  `more_than=20` here.
- a **shared band** (`first`..`last`, as `tournaments.domain.placings.Placing` gives it:
  "3rd-4th" is 3..4, Swiss ties "9th-10th" are 9..10) is paid as its best place, `first`: the
  semi-final losers of a top 8 are both "3rd-4th" and both take the row that covers 3rd, as
  the published tables pay a top-cut band as one row. A band crossing two rows (7th-10th
  with rows "8" and "16") takes the better row.
- points for **entering**, per **round played**, per **win**, per **draw** and per **bye**.
  `rounds` counts every round the player was in the event, byes included; `wins` counts won
  matches (or pods) and not byes, so a table pays a bye by its own `per_bye`.
- a **best-finish limit** per type: only the player's best `best_finishes` finishes of that
  type count, "best" meaning most points (Play! Pokémon: "the highest point totals are
  counted instead of the highest placements"); equal points prefer the better place, then
  the event listed first by id. `None` counts every finish.

Each row of the season table carries the finishes that count, the ones beyond the limit, and
per event type the points a new finish must *exceed* to count (`to_beat`: the weakest counted
finish once the player is at the limit; 0 below it, where every finish counts). Players are
ranked by points, then by the season's tie-break rules (`TIEBREAKS`: "most_event_wins",
"best_single_finish", "most_events", "most_match_wins"); players still equal share a rank
(competition ranking, 1, 2, 2, 4, shown as `(rank, tied)`) and are listed by player id.

Published systems, reproduced in `PRESETS` and tested from their documents
(tests/seasons/domain/test_rules.py):
- Limitless series points. The best-finish limit is from Limitless's own series page,
  https://play.limitlesstcg.com/series/limitless-online-2021/details ("The Weeklies have a
  Best Finish Limit of 10. That means if a player has more than 10 finishes that earned them
  ranking points in these tournaments, only their best 10 will count towards the ranking.").
  The stored copy of that page that could be read ends at its "Major tournaments" heading,
  before any point table, so the placings and kickers (1st 20, 2nd 16, 3rd-4th 14, 5th-8th
  12, 9th-32nd 6 only above 128 players, 33rd-64th 4 only above 300) still follow issue 35's
  summary of the page and are not checked against it.
- Play! Pokémon TCG League Challenge, 2024 season:
  https://www.pokemon.com/us/play-pokemon/pokemon-events/pokemon-tournaments/tcg-league-challenge/
  ("2024 Pokémon TCG League Challenge Championship Points": 1st 15, 2nd 12, 3-4 10, 5-8 8
  with a kicker of 21, 9-16 6 with 48, 17-32 4 with 80). Best-finish rule ("highest point
  totals"): https://www.pokemon.com/us/play-pokemon/pokemon-events/pokemon-tournaments/earn-championship-points/
  The limit itself is announced per season by Play! Pokémon, so the preset leaves it to the
  season (a store sets `best_finishes`).
- Penny Dreadful's tournament leaderboards, from its source (PennyDreadfulMTG/
  Penny-Dreadful-Tools, decksite/data/competition.py, `load_leaderboard`, the `points`
  column and its ORDER BY): a point for each tournament entered and a point for each match
  won; a bye is stored as a 2-0 win (decksite/scrapers/gatherling.py, `insert_match`) and the
  win count keeps it ("IFNULL so we still count byes as wins", decksite/data/archetype.py), so
  a bye pays a point too. Ties: most wins, then most entries (its ORDER BY; its numbered
  `finish` then parts players equal on both by name, where here they share a rank; read at
  commit fcae73dcbcd0d95577fbe41badea30c4db08c32a). There is no point per round
  played and no placing bonus in that source; a top-8 player earns more only through the
  elimination matches they win. The issue's summary ("each round played ... placing bonuses
  for the top 8") does not match the source, and the source is what is reproduced. Its
  leagues' extra point for a 5-0 run is not a placing and is not modelled here.
- A plain store points league (from the issue's summary): 3 for a win, 1 for a draw, 1 for
  attending; a bye pays as a win (3), as the events' own standings score it.

Every refusal is a `SeasonError` with a `code` and the `field` at fault ("placings[2].points").
"""

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from core.errors import DomainError
from core.translate import gettext as _
from leagues.domain.ranking import competition_ranks

PlayerKey = Any  # a player id: ints or strings, one kind per season (they are sorted)
EventKey = Any  # an event id, likewise


class SeasonError(DomainError, ValueError):
    """A point table, a season or an event that cannot be scored; `code` names the problem and
    `field` the row and field at fault."""


@dataclass(frozen=True, slots=True)
class PlacingRow:
    """Placing points for the places down to `down_to` (from the row above's place + 1);
    a kicker when `more_than` is set: it pays only when the event has more players than that."""

    down_to: int
    points: int
    more_than: int | None = None

    def pays(self, players: int) -> bool:
        return self.more_than is None or players > self.more_than


@dataclass(frozen=True, slots=True)
class PointTable:
    """How one event type pays (see the module)."""

    event_type: str
    placings: tuple[PlacingRow, ...] = ()
    best_finishes: int | None = None
    entering: int = 0
    per_round: int = 0
    per_win: int = 0
    per_draw: int = 0
    per_bye: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "placings", tuple(self.placings))
        _validate_table(self)

    def placing_points(self, place: int, players: int) -> int:
        """The placing points of `place` (a band's best place) in an event of `players`."""
        above = 0
        for row in self.placings:
            if above < place <= row.down_to:
                return row.points if row.pays(players) else 0
            above = row.down_to
        return 0

    def row_label(self, index: int) -> str:
        """The places a row covers, "3-4" or "1"."""
        first = self.placings[index - 1].down_to + 1 if index else 1
        last = self.placings[index].down_to
        return str(last) if first == last else f"{first}-{last}"


def _validate_table(table: PointTable) -> None:
    if not table.event_type.strip():
        raise SeasonError(
            code="no_event_type", field="event_type", message=_("An event type needs a name.")
        )
    name = _("Event type %(name)s") % {"name": repr(table.event_type)}
    # A sentence for each kind of points, not a phrase put into one ("points for %(what)s"
    # with "per round" read wrongly in other languages).
    negative = {
        "entering": lambda: _("%(type)s: the points for entering cannot be negative."),
        "per_round": lambda: _("%(type)s: the points per round cannot be negative."),
        "per_win": lambda: _("%(type)s: the points per win cannot be negative."),
        "per_draw": lambda: _("%(type)s: the points per draw cannot be negative."),
        "per_bye": lambda: _("%(type)s: the points per bye cannot be negative."),
    }
    for attribute, sentence in negative.items():
        if getattr(table, attribute) < 0:
            raise SeasonError(
                code="negative_points", field=attribute, message=sentence() % {"type": name}
            )
    if table.best_finishes is not None and table.best_finishes < 1:
        raise SeasonError(
            code="bad_limit",
            field="best_finishes",
            message=_(
                "%(type)s: the best-finish limit counts at least 1 finish (leave it empty to "
                "count every finish)."
            )
            % {"type": name},
        )
    previous: PlacingRow | None = None
    for i, row in enumerate(table.placings):
        # Translators: where in a point table a refusal is: "Event type 'Store night', row 2
        # (down to place 4)".
        where = _("%(type)s, row %(row)s (down to place %(place)s)") % {
            "type": name,
            "row": i + 1,
            "place": row.down_to,
        }
        if row.down_to < 1:
            raise SeasonError(
                code="bad_place",
                field=f"placings[{i}].down_to",
                message=_("%(where)s: places start at 1.") % {"where": where},
            )
        if row.points < 0:
            raise SeasonError(
                code="negative_points",
                field=f"placings[{i}].points",
                message=_("%(where)s: points cannot be negative.") % {"where": where},
            )
        if row.more_than is not None and row.more_than < 1:
            raise SeasonError(
                code="kicker_without_size",
                field=f"placings[{i}].more_than",
                message=_(
                    "%(where)s: a kicker needs the number of players the event must exceed "
                    "(1 or more)."
                )
                % {"where": where},
            )
        if previous is not None:
            if row.down_to <= previous.down_to:
                raise SeasonError(
                    code="placings_not_increasing",
                    field=f"placings[{i}].down_to",
                    message=_(
                        "%(where)s: each row must reach a lower place than the row above "
                        "(%(above)s)."
                    )
                    % {"where": where, "above": previous.down_to},
                )
            if row.points > previous.points:
                raise SeasonError(
                    code="points_increasing",
                    field=f"placings[{i}].points",
                    message=_(
                        "%(where)s: pays %(points)s, more than the better places above (%(above)s)."
                    )
                    % {"where": where, "points": row.points, "above": previous.points},
                )
            if (previous.more_than or 0) > (row.more_than or 0):
                raise SeasonError(
                    code="kicker_decreasing",
                    field=f"placings[{i}].more_than",
                    message=_(
                        "%(where)s: a worse place cannot pay in a smaller event than the row "
                        "above (more than %(players)s players)."
                    )
                    % {"where": where, "players": previous.more_than},
                )
        previous = row


@dataclass(frozen=True, slots=True)
class Finish:
    """One player's result at one event: the band of places `first`..`last` (one place when
    not shared), the rounds they were in (byes included), their wins (byes not included),
    draws and byes."""

    player: PlayerKey
    first: int
    last: int | None = None
    rounds: int = 0
    wins: int = 0
    draws: int = 0
    byes: int = 0

    def __post_init__(self) -> None:
        if self.last is None:
            object.__setattr__(self, "last", self.first)


@dataclass(frozen=True, slots=True)
class SeasonEvent:
    """An event of the season: its id, its type, its number of players (the kickers read it)
    and every player's finish."""

    event: EventKey
    event_type: str
    players: int
    finishes: tuple[Finish, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "finishes", tuple(self.finishes))


@dataclass(frozen=True, slots=True)
class ScoredFinish:
    """A finish with the points it earns: `points` in all, `placing` of them by placing (the
    rest from entering, rounds, wins, draws and byes, whose counts it carries)."""

    event: EventKey
    event_type: str
    player: PlayerKey
    first: int
    last: int
    players: int
    points: int
    placing: int
    rounds: int = 0
    wins: int = 0
    draws: int = 0
    byes: int = 0


def _tiebreak_event_wins(finishes: Sequence[ScoredFinish]) -> int:
    return sum(1 for f in finishes if f.first == 1)


def _tiebreak_best_finish(finishes: Sequence[ScoredFinish]) -> int:
    return -min(f.first for f in finishes)  # higher is better: 1st (-1) beats 3rd (-3)


def _tiebreak_events(finishes: Sequence[ScoredFinish]) -> int:
    return len(finishes)


def _tiebreak_match_wins(finishes: Sequence[ScoredFinish]) -> int:
    # Penny Dreadful counts a bye as a won match (see the module).
    return sum(f.wins + f.byes for f in finishes)


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """A named tie-break: `value` of a player's finishes (all of them, counted or not);
    higher is better."""

    name: str
    label: str
    value: Callable[[Sequence[ScoredFinish]], int]


TIEBREAKS: dict[str, Tiebreak] = {
    t.name: t
    for t in (
        Tiebreak("most_event_wins", "Most event wins", _tiebreak_event_wins),
        Tiebreak("best_single_finish", "Best single finish", _tiebreak_best_finish),
        Tiebreak("most_events", "Most events played", _tiebreak_events),
        Tiebreak("most_match_wins", "Most match wins (byes included)", _tiebreak_match_wins),
    )
}


@dataclass(frozen=True, slots=True)
class Season:
    """The season's event types (one `PointTable` each) and its tie-break rules, in order."""

    tables: tuple[PointTable, ...]
    tiebreaks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", tuple(self.tables))
        object.__setattr__(self, "tiebreaks", tuple(self.tiebreaks))
        names = Counter(t.event_type for t in self.tables)
        twice = sorted(n for n, c in names.items() if c > 1)
        if twice:
            raise SeasonError(
                code="duplicate_event_type",
                field="tables",
                message=_("The event type %(name)s has two point tables.")
                % {"name": repr(twice[0])},
            )
        for i, name in enumerate(self.tiebreaks):
            if name not in TIEBREAKS:
                raise SeasonError(
                    code="unknown_tiebreak",
                    field=f"tiebreaks[{i}]",
                    message=_("%(name)s is not a tie-break rule; the rules are %(rules)s.")
                    % {"name": repr(name), "rules": ", ".join(TIEBREAKS)},
                )
        if len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise SeasonError(
                code="duplicate_tiebreak",
                field="tiebreaks",
                message=_("A tie-break rule is named twice."),
            )

    def table(self, event_type: str) -> PointTable:
        for t in self.tables:
            if t.event_type == event_type:
                return t
        raise SeasonError(
            code="unknown_event_type",
            field="event_type",
            message=_("The season has no event type %(name)s.") % {"name": repr(event_type)},
        )


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """A player's line in the season table (see the module)."""

    rank: int
    tied: bool
    player: PlayerKey
    points: int
    counted: tuple[ScoredFinish, ...]
    dropped: tuple[ScoredFinish, ...]
    to_beat: tuple[tuple[str, int], ...]  # (event type, points a new finish must exceed)
    tiebreaks: tuple[tuple[str, int], ...] = field(default=())


def finish_points(table: PointTable, finish: Finish, players: int) -> int:
    """What one finish earns by `table` in an event of `players`."""
    return (
        table.entering
        + table.per_round * finish.rounds
        + table.per_win * finish.wins
        + table.per_draw * finish.draws
        + table.per_bye * finish.byes
        + table.placing_points(finish.first, players)
    )


def _validate_event(event: SeasonEvent, index: int) -> None:
    where = f"events[{index}]"
    name = f"Event {event.event!r}"
    if event.players < 1:
        raise SeasonError(
            code="no_players", field=f"{where}.players", message=f"{name} has no players."
        )
    if len(event.finishes) > event.players:
        raise SeasonError(
            code="too_many_finishes",
            field=f"{where}.finishes",
            message=f"{name} lists {len(event.finishes)} finishes for {event.players} players.",
        )
    seen: set = set()
    for j, f in enumerate(event.finishes):
        at = f"{where}.finishes[{j}]"
        who = f"{name}, player {f.player!r}"
        if f.player in seen:
            raise SeasonError(
                code="duplicate_player", field=at, message=f"{who} finishes twice in it."
            )
        seen.add(f.player)
        if not 1 <= f.first <= f.last <= event.players:
            raise SeasonError(
                code="bad_place",
                field=f"{at}.first",
                message=f"{who}: places {f.first}-{f.last} are not a band of an event of "
                f"{event.players} players.",
            )
        for attribute in ("rounds", "wins", "draws", "byes"):
            if getattr(f, attribute) < 0:
                raise SeasonError(
                    code="negative_count",
                    field=f"{at}.{attribute}",
                    message=f"{who}: {attribute} cannot be negative.",
                )
        if f.wins + f.draws + f.byes > f.rounds:
            raise SeasonError(
                code="more_results_than_rounds",
                field=f"{at}.rounds",
                message=f"{who}: {f.wins} wins, {f.draws} draws and {f.byes} byes in "
                f"{f.rounds} rounds.",
            )


def _best_first(f: ScoredFinish) -> tuple:
    return (-f.points, f.first, f.event)


def season_table(season: Season, events: Iterable[SeasonEvent]) -> list[SeasonRow]:
    """The season table of `events` (see the module), best first."""
    events = list(events)
    ids = Counter(e.event for e in events)
    twice = sorted(e for e, c in ids.items() if c > 1)
    if twice:
        raise SeasonError(
            code="duplicate_event", field="events", message=f"Event {twice[0]!r} is listed twice."
        )
    by_player: dict[PlayerKey, dict[str, list[ScoredFinish]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for i, event in enumerate(events):
        _validate_event(event, i)
        table = season.table(event.event_type)
        for f in event.finishes:
            scored = ScoredFinish(
                event=event.event,
                event_type=event.event_type,
                player=f.player,
                first=f.first,
                last=f.last,
                players=event.players,
                points=finish_points(table, f, event.players),
                placing=table.placing_points(f.first, event.players),
                rounds=f.rounds,
                wins=f.wins,
                draws=f.draws,
                byes=f.byes,
            )
            by_player[f.player][event.event_type].append(scored)

    rows = [_player_row(season, player, by_type) for player, by_type in by_player.items()]

    def strength(row: SeasonRow) -> tuple[int, ...]:
        return (row.points, *(value for _, value in row.tiebreaks))

    rows.sort(key=lambda row: (tuple(-v for v in strength(row)), row.player))
    return [
        replace(row, rank=rank, tied=tied)
        for row, (rank, tied) in zip(rows, competition_ranks(rows, strength), strict=True)
    ]


def _player_row(
    season: Season, player: PlayerKey, by_type: Mapping[str, list[ScoredFinish]]
) -> SeasonRow:
    """One player's row, unranked: each type's best finishes up to its limit."""
    counted: list[ScoredFinish] = []
    dropped: list[ScoredFinish] = []
    to_beat: list[tuple[str, int]] = []
    for table in sorted(season.tables, key=lambda t: t.event_type):
        limit = table.best_finishes
        finishes = sorted(by_type.get(table.event_type, ()), key=_best_first)
        keep = finishes if limit is None else finishes[:limit]
        counted += keep
        dropped += finishes[len(keep) :]
        at_limit = limit is not None and len(keep) == limit
        to_beat.append((table.event_type, keep[-1].points if at_limit else 0))
    every = counted + dropped
    return SeasonRow(
        rank=0,
        tied=False,
        player=player,
        points=sum(f.points for f in counted),
        counted=tuple(sorted(counted, key=_best_first)),
        dropped=tuple(sorted(dropped, key=_best_first)),
        to_beat=tuple(to_beat),
        tiebreaks=tuple((name, TIEBREAKS[name].value(every)) for name in season.tiebreaks),
    )


def lowest_place_to_count(table: PointTable, players: int, above: int) -> int | None:
    """The worst place whose placing points alone exceed `above` in an event of `players`
    (for "a 4th place or better would count"), or None when no place does."""
    best = None
    start = 1
    for row in table.placings:
        if row.pays(players) and row.points > above and start <= players:
            best = min(row.down_to, players)
        start = row.down_to + 1
    return best


# -- Published systems -------------------------------------------------------------------

LIMITLESS_EXAMPLE = PointTable(
    event_type="Limitless series event",
    placings=(
        PlacingRow(1, 20),
        PlacingRow(2, 16),
        PlacingRow(4, 14),
        PlacingRow(8, 12),
        PlacingRow(32, 6, more_than=128),
        PlacingRow(64, 4, more_than=300),
    ),
    best_finishes=10,
)

PLAY_POKEMON_LEAGUE_CHALLENGE_2024 = PointTable(
    event_type="League Challenge",
    placings=(
        PlacingRow(1, 15),
        PlacingRow(2, 12),
        PlacingRow(4, 10),
        PlacingRow(8, 8, more_than=20),  # "Kicker (# of participants) 21": 21 or more
        PlacingRow(16, 6, more_than=47),
        PlacingRow(32, 4, more_than=79),
    ),
)

PENNY_DREADFUL_TOURNAMENT = PointTable(
    event_type="Penny Dreadful tournament", entering=1, per_win=1, per_bye=1
)

STORE_POINTS = PointTable(event_type="Store night", entering=1, per_win=3, per_draw=1, per_bye=3)

PRESETS: dict[str, Season] = {
    "limitless": Season(tables=(LIMITLESS_EXAMPLE,)),
    "play_pokemon_league_challenge": Season(tables=(PLAY_POKEMON_LEAGUE_CHALLENGE_2024,)),
    "penny_dreadful": Season(
        tables=(PENNY_DREADFUL_TOURNAMENT,), tiebreaks=("most_match_wins", "most_events")
    ),
    "store_points": Season(tables=(STORE_POINTS,), tiebreaks=("most_event_wins", "most_events")),
}
