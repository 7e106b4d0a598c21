"""What every rating system promises, as plain values.

A system rates one game at a time: it takes every participant's state before the game and
the game's finishing order (ties allowed) and returns every participant's state after it.
The result never depends on the order of the players inside the game (systems canonicalise
the order themselves), and the same input always gives the same output.
"""

import json
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Protocol

from core.errors import DomainError
from core.translate import gettext as _


def N_(message: str) -> str:
    """Marks a label written at import time (a Param's label and help) for the catalogue
    without translating it there: the settings form translates it where it is shown."""
    return message


class ParamError(DomainError, ValueError):
    """A system parameter that cannot be used; `field` names it for the settings form, and
    the message reads after it ("must be a number"), as `str()` does ("k: must be a number")."""

    default_code = "bad_parameter"
    message_follows_field = True


@dataclass(frozen=True, slots=True)
class RatingState:
    """A player's rating: Elo's rating, or OpenSkill's mu with its sigma as `deviation`."""

    rating: float
    deviation: float | None = None


@dataclass(frozen=True, slots=True)
class Finish:
    """One player's result in a game: 1 = winner, equal places are ties."""

    player: Hashable
    place: int
    stats: Mapping = field(default_factory=dict)


class RatingSystem(Protocol):
    name: ClassVar[str]  # registry key, stored on the league: "guildmaster", "elo", ...
    label: ClassVar[str]  # for people: "Guildmaster Elo (K 40, D 800)"
    integer: ClassVar[bool]  # ratings are whole numbers (shown without decimals)
    uses_stats: ClassVar[bool]  # reads Finish.stats (the ledger loads stats only then)

    def params(self) -> dict:
        """The parameters in force, JSON-ready (what the league stores)."""

    def initial(self) -> RatingState:
        """The state of a player who has not played yet."""

    def rate(
        self, before: Mapping[Hashable, RatingState], finish: Sequence[Finish]
    ) -> dict[Hashable, RatingState]:
        """States after one game, for every player in `finish` (all present in `before`)."""

    def display(self, state: RatingState) -> float:
        """The leaderboard value (Elo rating; OpenSkill's conservative mu - 3 sigma)."""

    def strength(self, state: RatingState) -> float:
        """What predicts a winner: the highest strength in a game is the favourite."""

    def win_probabilities(self, states: Sequence[RatingState]) -> list[float]:
        """P(each player wins) for a game between these states; sums to 1."""

    def is_provisional(self, games: int) -> bool:
        """Whether a player with this many games is still provisional on the leaderboard."""


# --- Shared helpers for the systems (additions; the contract above is unchanged) -------------


def canonical(finish: Sequence[Finish]) -> list[Finish]:
    """The game in one fixed order, (place, player as text), whatever order it came in.

    Every system rates this order, so players tied at a place never depend on input order.
    A player may appear only once and places start at 1: anything else is a ValueError.
    """
    seen = set()
    for f in finish:
        if f.player in seen:
            raise ValueError(f"player {f.player!r} appears twice in one game")
        seen.add(f.player)
        if isinstance(f.place, bool) or not isinstance(f.place, int) or f.place < 1:
            raise ValueError(f"place of {f.player!r} must be a whole number >= 1, not {f.place!r}")
    return sorted(finish, key=lambda f: (f.place, str(f.player)))


@dataclass(frozen=True, slots=True)
class Param:
    """One system parameter, described well enough to generate a settings form field.

    `kind` is "int", "float", "bool", "choice" (one of `choices`) or "bands" (Elo K bands:
    a list of [upper bound or None, K]). `min`/`max` bound numbers inclusively, except that
    `min_exclusive` makes the lower bound strict (K > 0).
    """

    name: str
    kind: str
    default: object
    label: str
    help: str
    min: float | None = None
    max: float | None = None
    min_exclusive: bool = False
    choices: tuple = ()

    def as_dict(self) -> dict:
        """JSON-ready description, for a form or an API."""
        return {
            "name": self.name,
            "kind": self.kind,
            "default": json.loads(json.dumps(self.default)),  # a copy: defaults stay put
            "label": self.label,
            "help": self.help,
            "min": self.min,
            "max": self.max,
            "min_exclusive": self.min_exclusive,
            "choices": list(self.choices),
        }

    def clean(self, value: object) -> object:
        """The value in its canonical JSON-ready form, or ParamError(field=name, message=why)."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ParamError(field=self.name, message=_("must be true or false"))
            return value
        if self.kind == "choice":
            if value not in self.choices:
                options = ", ".join(repr(c) for c in self.choices)
                raise ParamError(
                    field=self.name, message=_("must be one of %(options)s") % {"options": options}
                )
            return value
        if self.kind == "int":
            if isinstance(value, float) and value.is_integer():
                value = int(value)  # JSON may hand back 5.0 for 5
            if isinstance(value, bool) or not isinstance(value, int):
                raise ParamError(field=self.name, message=_("must be a whole number"))
            self._check_range(value)
            return value
        if self.kind == "float":
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ParamError(field=self.name, message=_("must be a number"))
            if not math.isfinite(value):
                raise ParamError(field=self.name, message=_("must be a finite number"))
            self._check_range(value)
            return value
        raise AssertionError(f"{self.name}: kind {self.kind!r} needs its own cleaning")

    def _check_range(self, value: float) -> None:
        if self.min is not None:
            if self.min_exclusive and value <= self.min:
                raise ParamError(
                    field=self.name,
                    message=_("must be greater than %(min)s") % {"min": f"{self.min:g}"},
                )
            if not self.min_exclusive and value < self.min:
                raise ParamError(
                    field=self.name,
                    message=_("must be at least %(min)s") % {"min": f"{self.min:g}"},
                )
        if self.max is not None and value > self.max:
            raise ParamError(
                field=self.name, message=_("must be at most %(max)s") % {"max": f"{self.max:g}"}
            )


def clean_params(system: str, specs: Sequence[Param], given: Mapping | None) -> dict:
    """`given` checked against `specs`, defaults filled in, in the order of `specs`.

    Unknown keys and bad values raise ParamError naming the parameter. Kinds that a Param
    cannot clean alone ("bands") are passed through for the system to check.
    """
    given = dict(given or {})
    known = {p.name for p in specs}
    for key in given:
        if key not in known:
            names = ", ".join(p.name for p in specs) or "none"
            raise ParamError(
                field=str(key),
                message=_("not a parameter of %(system)s (its parameters: %(names)s)")
                % {"system": system, "names": names},
            )
    cleaned = {}
    for p in specs:
        value = given.get(p.name, p.default)
        cleaned[p.name] = value if p.kind == "bands" else p.clean(value)
    return cleaned


class ParamSystem:
    """Common shell of the concrete systems: parameters checked once, then never changed.

    `System(params_mapping)` or `System(k=32, ...)`; unknown or bad parameters raise
    ParamError. Subclasses set `PARAMS` and may override `_check(cleaned)` for rules that
    span parameters; they read their settings from `self._p`.
    """

    name: ClassVar[str]
    label: ClassVar[str]
    integer: ClassVar[bool]
    PARAMS: ClassVar[tuple[Param, ...]] = ()

    def __init__(self, params: Mapping | None = None, /, **kwargs):
        given = {**dict(params or {}), **kwargs}
        cleaned = clean_params(self.name, self.PARAMS, given)
        object.__setattr__(self, "_p", self._check(cleaned))

    def _check(self, cleaned: dict) -> dict:
        return cleaned

    def __setattr__(self, key, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, key):
        raise AttributeError(f"{type(self).__name__} is immutable")

    @classmethod
    def describe_params(cls) -> list[dict]:
        """JSON-ready field descriptions for a settings form."""
        return [p.as_dict() for p in cls.PARAMS]

    def params(self) -> dict:
        """The parameters in force, JSON-ready, defaults filled in (a fresh copy)."""
        return json.loads(json.dumps(self._p))

    def is_provisional(self, games: int) -> bool:
        return False

    def __eq__(self, other):
        return type(other) is type(self) and other._p == self._p

    def __hash__(self):
        return hash((self.name, json.dumps(self._p, sort_keys=True)))

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self._p.items())
        return f"{type(self).__name__}({args})"
