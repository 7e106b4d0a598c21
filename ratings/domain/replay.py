"""Replaying games through a rating system: the ledger rows and each player's running tally.

Pure: games and tallies in, ledger rows and tallies out. The database side (ratings.ledger)
feeds it the games from some position on and each player's tally just before that position;
the benchmark's floor runs the same function on in-memory games.
"""

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from .base import Finish, RatingState, RatingSystem


@dataclass(frozen=True, slots=True)
class Tally:
    """A player's standing after their latest rated game."""

    state: RatingState
    games: int
    wins: int
    last_played: date
    last_game: int


@dataclass(frozen=True, slots=True)
class RatedGame:
    game_id: int
    played_on: date
    finish: Sequence[Finish]


# One ledger row: game, player, played_on, before, after, delta, rating, deviation, games, wins.
ChangeRow = tuple[int, Hashable, date, float, float, float, float, float | None, int, int]


def replay(
    system: RatingSystem,
    games: Iterable[RatedGame],
    tallies: Mapping[Hashable, Tally],
    *,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[ChangeRow], dict[Hashable, Tally]]:
    """Rate `games` in order, starting from `tallies`; return the ledger rows and new tallies.

    Players without a tally start from `system.initial()` with no games.
    """
    current = dict(tallies)
    rows: list[ChangeRow] = []
    initial = system.initial()
    display = system.display
    for count, game in enumerate(games, 1):
        before = {}
        for finish in game.finish:
            tally = current.get(finish.player)
            before[finish.player] = tally.state if tally is not None else initial
        after = system.rate(before, game.finish)
        for finish in game.finish:
            player = finish.player
            tally = current.get(player)
            games_played = (tally.games if tally else 0) + 1
            wins = (tally.wins if tally else 0) + (finish.place == 1)
            state = after[player]
            shown_before, shown_after = display(before[player]), display(state)
            rows.append(
                (
                    game.game_id,
                    player,
                    game.played_on,
                    shown_before,
                    shown_after,
                    shown_after - shown_before,
                    state.rating,
                    state.deviation,
                    games_played,
                    wins,
                )
            )
            current[player] = Tally(state, games_played, wins, game.played_on, game.game_id)
        if progress is not None and count % 1000 == 0:
            progress(count)
    return rows, current
