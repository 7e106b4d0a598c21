"""How a table's result reads on the pages: a seat's place ("2nd"), a match's games ("2-1",
"0-0-3"), whether a pod's places are a full finishing order, and what a round is called
("Round 3", "Final"). Shared by the models (the console's cards) and the public pages' light
rows (`selectors.round_board`)."""

from collections.abc import Sequence

from tournaments.domain.texts import N_, Gettext, english

# A top-cut round's stage as `Round.stage` stores it (English, from `topcut`/`podcut`), and how
# it reads inside a sentence; "Top 16" and the like by the number of players.
STAGES_IN_SENTENCE = {
    "Final": N_("the final"),
    "Semifinals": N_("the semifinals"),
    "Semi-finals": N_("the semi-finals"),
    "Quarterfinals": N_("the quarterfinals"),
}
TOP = N_("Top %(players)s")
TOP_IN_SENTENCE = N_("the top %(players)s")
# Translators: an ordinal place in a tournament ("1st", "21st"): the place's number and its
# ending. Use one form for every number where your language has one ("%(place)s.").
ORDINALS = {
    1: N_("%(place)sst"),
    2: N_("%(place)snd"),
    3: N_("%(place)srd"),
}
ORDINAL = N_("%(place)sth")


def place_label(place: int | None, gettext: Gettext = english) -> str:
    """ "1st", "2nd", "3rd", "4th", "11th"... ("" before the result), in `gettext`'s
    language."""
    if place is None:
        return ""
    return gettext(place_template(place)) % {"place": place}


def place_template(place: int) -> str:
    """The msgid `place_label` fills in for `place` ("%(place)snd" for 2, 22)."""
    if 10 <= place % 100 <= 20:
        return ORDINAL
    return ORDINALS.get(place % 10, ORDINAL)


def stage_label(stage: str, gettext: Gettext = english, *, in_sentence: bool = False) -> str:
    """A top-cut stage as `Round.stage` stores it ("Final", "Top 16"), in `gettext`'s
    language; `in_sentence`: "the final"."""
    top = stage.removeprefix("Top ")
    if top != stage and top.isdigit():
        return gettext(TOP_IN_SENTENCE if in_sentence else TOP) % {"players": top}
    if not in_sentence:
        return gettext(stage)
    if stage in STAGES_IN_SENTENCE:
        return gettext(STAGES_IN_SENTENCE[stage])
    return f"the {stage[0].lower()}{stage[1:]}"


def round_label(
    number: int, stage: str = "", *, in_sentence: bool = False, gettext: Gettext = english
) -> str:
    """What the pages call a round: "Round 3", or a top-cut round by its stage ("Final",
    "Semifinals"), never by its number (a 3-round event's final is its round 4, a number no
    player knows it by). `in_sentence`: as it reads inside a sentence ("round 3", "the
    final"). In `gettext`'s language (the site passes Django's)."""
    if not stage:
        template = N_("round %(number)s") if in_sentence else N_("Round %(number)s")
        return gettext(template) % {"number": number}
    return stage_label(stage, gettext, in_sentence=in_sentence)


def result_label(
    *,
    reported: bool,
    is_draw: bool,
    game_wins: Sequence[int | None],
    game_draws: int,
    gettext: Gettext = english,
) -> str:
    """A reported match's games as the MTR writes them, en dashes between the numbers
    ("2-1", "2-0-1", "0-0-3" for an intentional draw), "draw" for a drawn match without
    games; "" otherwise (not reported, a bye, or a pod, whose places say its result)."""
    if not reported or len(game_wins) != 2:
        return ""
    if None in game_wins:
        return gettext(N_("draw")) if is_draw else ""
    games = [*game_wins, game_draws] if game_draws else list(game_wins)
    return "\u2013".join(str(g) for g in games)


def full_order(places: Sequence[int | None]) -> bool:
    """Whether the seats' places say more than the result: a pod's full finishing order
    rather than "the winner first, the rest second" or "everyone first" (a draw)."""
    known = sorted(p for p in places if p is not None)
    if len(known) != len(places) or len(known) < 3:
        return False
    return known not in ([1] * len(known), [1] + [2] * (len(known) - 1))
