"""Players' reports as plain values: a result in a few words, and whether enough of the table
agrees with one (services.reports decides with it, selectors.reports shows it).

A result is a `domain.result.Result` (what was entered: a winner, a draw, a pod's full order,
a match's games); names are entry id -> player name in seat order.
"""

from collections.abc import Mapping

from . import labels
from .result import Result

RULES = ("all", "majority")


def result_words(
    result: Result, names: Mapping[int, str]
) -> tuple[list[int] | None, int | None, str]:
    """What a result says, before it is put in words: a pod's full order (entry ids by place,
    seat order within a place) when the places say more than a winner or a draw, else None;
    the winner (None for a draw); a match's games from the winner's side, whoever sits first,
    with en dashes ("2\u20131", a draw's in seat order; "" without games)."""
    places = result.place_of
    seated = list(names)
    if labels.full_order([places.get(e) for e in seated]):
        return sorted(seated, key=lambda e: (places[e], seated.index(e))), None, ""
    winner = result.winner
    if winner is None and places:
        first = [e for e, p in places.items() if p == 1]
        winner = first[0] if len(first) == 1 else None
    games = ""
    if result.game_wins:
        wins = result.wins_of
        # The winner's games first: "Bob won 2-1", never "Bob won 1-2".
        order = sorted(seated, key=lambda e: e != winner)
        games = "\u2013".join(str(wins[e]) for e in order)
        if result.game_draws:
            games += f"\u2013{result.game_draws}"
    return None, winner, games


def result_summary(result: Result, names: Mapping[int, str]) -> str:
    """ "Ann won", "a draw", "Bob won 2-1" (`result_words`), or a pod's full order: "1st Ann,
    2nd Bob, 2nd Cy, 4th Dee" (an order that says no more than a winner or a draw, such as
    1, 2, 2, 2, is said as that)."""
    order, winner, games = result_words(result, names)
    if order is not None:
        places = result.place_of
        return ", ".join(f"{labels.place_label(places[e])} {names[e]}" for e in order)
    games = f" {games}" if games else ""
    if winner is None:
        return f"a draw{games}"
    return f"{names[winner]} won{games}"


def still_needed(*, agreeing: int, players: int, rule: str) -> int:
    """How many more players must agree with a report before it is the result: every player
    at the table ("all"), or strictly more than half of them ("majority": 2 of 2, 2 of 3,
    3 of 4, 3 of 5)."""
    wanted = players if rule != "majority" else players // 2 + 1
    return max(0, wanted - agreeing)
