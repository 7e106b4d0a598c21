"""How a table's result reads on the pages: a seat's place ("2nd"), a match's games ("2-1",
"0-0-3"), whether a pod's places are a full finishing order, and what a round is called
("Round 3", "Final"). Shared by the models (the console's cards) and the public pages' light
rows (`selectors.round_board`)."""

from collections.abc import Sequence


def place_label(place: int | None) -> str:
    """ "1st", "2nd", "3rd", "4th", "11th"... ("" before the result)."""
    if place is None:
        return ""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    if 10 <= place % 100 <= 20:
        suffix = "th"
    return f"{place}{suffix}"


def round_label(number: int, stage: str = "", *, in_sentence: bool = False) -> str:
    """What the pages call a round: "Round 3", or a top-cut round by its stage ("Final",
    "Semifinals"), never by its number (a 3-round event's final is its round 4, a number no
    player knows it by). `in_sentence`: as it reads inside a sentence ("round 3", "the
    final")."""
    if not stage:
        return f"round {number}" if in_sentence else f"Round {number}"
    return f"the {stage[0].lower()}{stage[1:]}" if in_sentence else stage


def numbered(noun: str, nouns: str, numbers: Sequence[int]) -> str:
    """ "table 3", "pods 1 and 4", "tables 1, 2 and 5": the noun agreeing with the count."""
    shown = [str(n) for n in numbers]
    if len(shown) == 1:
        return f"{noun} {shown[0]}"
    return f"{nouns} {', '.join(shown[:-1])} and {shown[-1]}"


def result_label(
    *, reported: bool, is_draw: bool, game_wins: Sequence[int | None], game_draws: int
) -> str:
    """A reported match's games as the MTR writes them, en dashes between the numbers
    ("2-1", "2-0-1", "0-0-3" for an intentional draw), "draw" for a drawn match without
    games; "" otherwise (not reported, a bye, or a pod, whose places say its result)."""
    if not reported or len(game_wins) != 2:
        return ""
    if None in game_wins:
        return "draw" if is_draw else ""
    games = [*game_wins, game_draws] if game_draws else list(game_wins)
    return "\u2013".join(str(g) for g in games)


def full_order(places: Sequence[int | None]) -> bool:
    """Whether the seats' places say more than the result: a pod's full finishing order
    rather than "the winner first, the rest second" or "everyone first" (a draw)."""
    known = sorted(p for p in places if p is not None)
    if len(known) != len(places) or len(known) < 3:
        return False
    return known not in ([1] * len(known), [1] + [2] * (len(known) - 1))
