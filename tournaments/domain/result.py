"""A table's result as one value: what a TO's tap or a player's report says.

The event's format (`tournaments.formats`) reads a posted form into a `Result` once; the TO's
entry (`services.results.table_report`), a player's report (`services.reports`, which keeps it
as JSON) and History's undo all hand the same value on, and the format checks it against the
table (`Format.check_result`). It says what was entered, nothing more:

- `winner`: the winning entry's id, or None when no winner was named;
- `draw`: a drawn match or pod (everyone shares first);
- `places`: a pod's full finishing order, entry id -> place (a competition ranking, shared
  places as 1, 2, 2, 4; a shared first place is a draw); empty when only a winner or a draw
  was named;
- `game_wins`: a match's games won, entry id -> games; empty when the games were not counted;
- `game_draws`: a match's drawn games (MTR 2.4: an intentional draw is 0-0-3).

`places` and `game_wins` are kept as (entry id, n) pairs in entry order, so two values that say
the same are equal; a mapping given to the constructor is turned into them. As JSON (`as_json`)
the ids are text, as JSON keys must be.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Pairs = tuple[tuple[int, Any], ...]


def _pairs(value: Mapping | Iterable | None) -> Pairs:
    items = value.items() if isinstance(value, Mapping) else (value or ())
    return tuple(sorted(items, key=lambda pair: pair[0]))


@dataclass(frozen=True)
class Result:
    """One table's result as entered (see the module's docstring)."""

    winner: int | None = None
    draw: bool = False
    places: Pairs = ()
    game_wins: Pairs = ()
    game_draws: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "places", _pairs(self.places))
        object.__setattr__(self, "game_wins", _pairs(self.game_wins))

    @property
    def place_of(self) -> dict[int, Any]:
        """`places` as a dict (entry id -> place); empty without a full order."""
        return dict(self.places)

    @property
    def wins_of(self) -> dict[int, Any]:
        """`game_wins` as a dict (entry id -> games won); empty when not counted."""
        return dict(self.game_wins)

    def as_json(self) -> dict:
        """The value as JSON: {"winner": id or null, "draw": bool, "places": {"id": place},
        "game_wins": {"id": games}, "game_draws": n}."""
        return {
            "winner": self.winner,
            "draw": self.draw,
            "places": {str(e): p for e, p in self.places},
            "game_wins": {str(e): w for e, w in self.game_wins},
            "game_draws": self.game_draws,
        }

    @classmethod
    def from_json(cls, data: Mapping) -> "Result":
        """The value `as_json` wrote."""
        winner = data.get("winner")
        return cls(
            winner=None if winner is None else int(winner),
            draw=bool(data.get("draw", False)),
            places={int(e): p for e, p in (data.get("places") or {}).items()},
            game_wins={int(e): w for e, w in (data.get("game_wins") or {}).items()},
            game_draws=data.get("game_draws", 0),
        )
