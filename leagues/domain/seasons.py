"""Point tables for points seasons: what one finish at one event pays, by the event's type.

A `PointTable` pays a `Finish` (a player's place band and their rounds, wins, draws and
byes at one event) in an event of a given number of players; `finish_points` adds it up.
Season tables (best finishes, tie-breaks) build on this.

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
- a **best-finish limit** per type (`best_finishes`), which the season table applies.

Published tables, tested from their documents (tests/leagues/domain/test_seasons.py):
- Limitless series points: the worked example of Limitless's series documentation as issue 35
  summarises it (1st 20, 2nd 16, 3rd-4th 14, 5th-8th 12, 9th-32nd 6 only above 128 players,
  33rd-64th 4 only above 300, best-finish limit 10). Limitless's own page could not be
  found to read, so this table follows the issue's summary.
- Play! Pokémon TCG League Challenge, 2024 season:
  https://www.pokemon.com/us/play-pokemon/pokemon-events/pokemon-tournaments/tcg-league-challenge/
  ("2024 Pokémon TCG League Challenge Championship Points": 1st 15, 2nd 12, 3-4 10, 5-8 8
  with a kicker of 21, 9-16 6 with 48, 17-32 4 with 80).
- Penny Dreadful's tournament leaderboards, from its source (PennyDreadfulMTG/
  Penny-Dreadful-Tools, decksite/data/competition.py, `load_leaderboard`, the `points`
  column): a point for each tournament entered and a point for each match won; a bye is
  stored as a 2-0 win (decksite/scrapers/gatherling.py, `insert_match`) and the win count
  keeps it ("IFNULL so we still count byes as wins", decksite/data/archetype.py), so a bye
  pays a point too. There is no point per round played and no placing bonus in that source;
  a top-8 player earns more only through the elimination matches they win. The issue's
  summary ("each round played ... placing bonuses for the top 8") does not match the source,
  and the source is what is reproduced.
- A plain store points league (from the issue's summary): 3 for a win, 1 for a draw, 1 for
  attending; a bye pays as a win (3), as the events' own standings score it.

Every refusal is a `SeasonError` with a `code` and the `field` at fault ("placings[2].points").
"""

from dataclasses import dataclass
from typing import Any

from core.errors import DomainError

PlayerKey = Any  # a player id: ints or strings, one kind per season (they are sorted)


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
            code="no_event_type", field="event_type", message="An event type needs a name."
        )
    name = f"Event type {table.event_type!r}"
    for attribute in ("entering", "per_round", "per_win", "per_draw", "per_bye"):
        if getattr(table, attribute) < 0:
            raise SeasonError(
                code="negative_points",
                field=attribute,
                message=f"{name}: points for {attribute.replace('_', ' ')} cannot be negative.",
            )
    if table.best_finishes is not None and table.best_finishes < 1:
        raise SeasonError(
            code="bad_limit",
            field="best_finishes",
            message=f"{name}: the best-finish limit counts at least 1 finish "
            "(leave it empty to count every finish).",
        )
    previous: PlacingRow | None = None
    for i, row in enumerate(table.placings):
        where = f"{name}, row {i + 1} (down to place {row.down_to})"
        if row.down_to < 1:
            raise SeasonError(
                code="bad_place",
                field=f"placings[{i}].down_to",
                message=f"{where}: places start at 1.",
            )
        if row.points < 0:
            raise SeasonError(
                code="negative_points",
                field=f"placings[{i}].points",
                message=f"{where}: points cannot be negative.",
            )
        if row.more_than is not None and row.more_than < 1:
            raise SeasonError(
                code="kicker_without_size",
                field=f"placings[{i}].more_than",
                message=f"{where}: a kicker needs the number of players the event must exceed "
                "(1 or more).",
            )
        if previous is not None:
            if row.down_to <= previous.down_to:
                raise SeasonError(
                    code="placings_not_increasing",
                    field=f"placings[{i}].down_to",
                    message=f"{where}: each row must reach a lower place than the row above "
                    f"({previous.down_to}).",
                )
            if row.points > previous.points:
                raise SeasonError(
                    code="points_increasing",
                    field=f"placings[{i}].points",
                    message=f"{where}: pays {row.points}, more than the better places above "
                    f"({previous.points}).",
                )
            if (previous.more_than or 0) > (row.more_than or 0):
                raise SeasonError(
                    code="kicker_decreasing",
                    field=f"placings[{i}].more_than",
                    message=f"{where}: a worse place cannot pay in a smaller event than the "
                    f"row above (more than {previous.more_than} players).",
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
