"""Finishing orders and standard competition ranking ("1224"), with no Django.

A game's result is a finishing order: groups of players, best first, players in one group
sharing a place. Places follow standard competition ranking: a group's place is one more than
the number of players ahead of it (1, 2, 2, 4). `is_valid_ranking` is the rule the database
trigger enforces too (see leagues/migrations), so forms, imports and the API agree with it.
"""

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

from core.errors import DomainError
from core.translate import gettext as _

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


class RankingError(DomainError, ValueError):
    """A finishing order that cannot be a game result; `code` names the rule broken."""


def places_from_groups(groups: Sequence[Sequence[T]]) -> list[tuple[T, int]]:
    """Flatten tied groups (best first) into (item, place) with competition ranking."""
    placed: list[tuple[T, int]] = []
    for group in groups:
        if not group:
            raise RankingError(
                code="empty_place",
                message=_("A place in the finishing order has nobody in it."),
            )
        place = len(placed) + 1
        placed.extend((item, place) for item in group)
    return placed


def groups_from_places(items: Iterable[tuple[T, int]]) -> list[list[T]]:
    """The inverse of `places_from_groups`: group items by place, best place first."""
    by_place: dict[int, list[T]] = {}
    for item, place in items:
        by_place.setdefault(place, []).append(item)
    return [by_place[place] for place in sorted(by_place)]


def is_valid_ranking(places: Iterable[int]) -> bool:
    """True when the places are a standard competition ranking of their players.

    Each place must equal 1 + the number of places strictly better than it, so 1,2,2,4 and
    1,1,3 are valid while 1,3 (a gap), 2,3 (no winner) and 1,2,2,3 are not.
    """
    counts = Counter(places)
    if not counts:
        return False
    ahead = 0
    for place in sorted(counts):
        if place != ahead + 1:
            return False
        ahead += counts[place]
    return True


def validate_places(places: Sequence[int], *, minimum_players: int = 2) -> None:
    """Raise RankingError unless `places` is a playable game's ranking."""
    if len(places) < minimum_players:
        raise RankingError(
            code="too_few_players",
            message=_("A game needs at least %(minimum_players)s players; this one has %(count)s.")
            % {"minimum_players": minimum_players, "count": len(places)},
        )
    if any(place < 1 for place in places):
        raise RankingError(code="place_below_one", message=_("Places start at 1 (the winner)."))
    if not is_valid_ranking(places):
        shown = ", ".join(str(p) for p in sorted(places))
        raise RankingError(
            code="invalid_ranking",
            message=_(
                "Places %(shown)s are not a ranking: tied players share a place and the "
                "next place skips past them (1, 2, 2, 4)."
            )
            % {"shown": shown},
        )


def competition_ranks(items: Sequence[T], key: Callable[[T], Hashable]) -> list[tuple[int, bool]]:
    """(rank, tied) for items already sorted best first; equal keys share a rank (1224)."""
    keys = [key(item) for item in items]
    counts = Counter(keys)
    ranks: list[tuple[int, bool]] = []
    rank = 0
    for position, value in enumerate(keys):
        if position == 0 or value != keys[position - 1]:
            rank = position + 1
        ranks.append((rank, counts[value] > 1))
    return ranks
