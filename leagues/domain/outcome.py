"""Win, draw or loss: the league's one definition of a player's outcome in a game, with no Django.

A win is an unshared first place. A draw is a shared first place: a drawn pod, a 1-1, an
intentional draw (every drawer finishes first, as `ranking` places them). Anything else is a
loss. A player's win % is wins / games: a draw is not half a win. The rating ledger's running
tallies, the standings, a player's page, My Guildhall, the API and the Decks tab all count
with this module: `outcome` and `outcomes` in Python, `outcome_sql` inside a query, which a
test holds to the Python for every finishing order of up to five players.
"""

from collections.abc import Sequence
from enum import StrEnum


class Outcome(StrEnum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


_WIN, _DRAW, _LOSS = Outcome.WIN, Outcome.DRAW, Outcome.LOSS


def outcome(place: int, firsts: int) -> Outcome:
    """The outcome of a player who finished at `place` in a game where `firsts` players
    finished first (the player included, when first)."""
    if place != 1:
        return Outcome.LOSS
    return Outcome.WIN if firsts == 1 else Outcome.DRAW


def outcomes(places: Sequence[int]) -> list[Outcome]:
    """Each player's outcome of one game, in the order of `places` (its finishing places):
    `outcome` for each, without a call per player (the replay asks it of every game)."""
    first = _WIN if sum(place == 1 for place in places) == 1 else _DRAW
    return [first if place == 1 else _LOSS for place in places]


def outcome_sql(place: str, firsts: str) -> str:
    """`outcome` as a PostgreSQL expression ('win', 'draw' or 'loss') of two SQL expressions:
    the player's place and how many players of the game finished first."""
    return f"(CASE WHEN {place} <> 1 THEN 'loss' WHEN {firsts} = 1 THEN 'win' ELSE 'draw' END)"


def win_percent(wins: int, games: int) -> float:
    """Wins / games, in percent (0 without games): a draw counts as no win."""
    return 100.0 * wins / games if games else 0.0
