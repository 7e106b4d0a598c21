"""The History's phrases about an event: a round, a table or pod of it, a result, kept before
translation (`audit.summary.Summary`) so that each reader reads them in their own language.

They say in English what the English summaries always said ("round 3", "Final", "round 3,
table 5", "Bob won 2-1" with an en dash, "1st Ann, 2nd Bob"), from the msgids the pages use
where those exist (`domain.labels`, `errors.describe_result`)."""

from audit.summary import N_, Summary

from .domain import labels
from .domain.reports import result_words
from .domain.result import Result


def round_phrase(round_, *, capital: bool = False) -> Summary:
    """ "round 3" as it reads inside a sentence ("Round 3" at its start: `capital`), or a
    top-cut round by its stage as the pages name it ("Final", "Top 8")."""
    stage = round_.stage
    if not stage:
        template = N_("Round %(number)s") if capital else N_("round %(number)s")
        return Summary(template, number=round_.number)
    top = stage.removeprefix("Top ")
    if top != stage and top.isdigit():
        return Summary(labels.TOP, players=top)
    return Summary(stage)  # "Final", "Semifinals": the stages' msgids (domain.topcut)


def table_phrase(round_, number: int, play) -> Summary:
    """ "round 3, table 5", "Final, pod 1": written whole for a table and for a pod, whose
    nouns differ in gender and case by language (`Format.table_sentence`)."""
    template = play.table_sentence(
        N_("%(round)s, table %(number)s"), N_("%(round)s, pod %(number)s")
    )
    return Summary(template, round=round_phrase(round_), number=number)


def place_phrase(place: int) -> Summary:
    """ "2nd", "11th" (`labels.place_label`)."""
    return Summary(labels.place_template(place), place=place)


def result_phrase(result: Result, names: dict[int, str]):
    """What `domain.reports.result_summary` says, kept before translation: "Ann won", "a
    draw", "Bob won 2-1" (an en dash), or a pod's full order ("1st Ann, 2nd Bob", a list).
    `names`: each seated entry's player, in seat order."""
    order, winner, games = result_words(result, names)
    if order is not None:
        places = result.place_of
        return Summary.items(
            # Translators: a pod's finishing order, one player: their place ("1st") and name.
            Summary(N_("%(place)s %(player)s"), place=place_phrase(places[e]), player=names[e])
            for e in order
        )
    if winner is None:
        return Summary(N_("a draw %(games)s"), games=games) if games else Summary(N_("a draw"))
    if games:
        return Summary(N_("%(player)s won %(games)s"), player=names[winner], games=games)
    return Summary(N_("%(player)s won"), player=names[winner])
