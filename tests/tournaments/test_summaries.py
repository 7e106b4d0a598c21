"""The History's phrases about a result (tournaments.summaries.result_phrase): in English they
say what the report's own line says (domain.reports.result_summary), so an entry's English
`summary` reads as before; in German and Japanese the pages' result words, and the pod's
places in that language."""

import pytest
from django.utils import translation

from audit.summary import Summary
from tournaments.domain.reports import result_summary
from tournaments.domain.result import Result
from tournaments.summaries import result_phrase

NAMES = {1: "Ann", 2: "Ezra Cole"}
POD = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}


def english(value) -> str:
    return str(Summary("%(result)s", result=value))


@pytest.mark.parametrize(
    ("result", "names"),
    [
        (Result(winner=2, game_wins={1: 1, 2: 2}), NAMES),
        (Result(winner=1, game_wins={1: 2, 2: 1}), NAMES),
        (Result(winner=2, game_wins={1: 0, 2: 1}, game_draws=1), NAMES),
        (Result(winner=2), NAMES),
        (Result(draw=True, game_wins={1: 1, 2: 1}, game_draws=1), NAMES),
        (Result(draw=True), NAMES),
        (Result(places={1: 2, 2: 4, 3: 1, 4: 2}), POD),
        (Result(places={1: 1, 2: 2, 3: 2, 4: 2}), POD),
    ],
)
def test_in_english_it_says_what_the_report_says(result, names):
    assert english(result_phrase(result, names)) == result_summary(result, names)


@pytest.mark.parametrize(
    ("language", "match", "pod"),
    [
        ("de", "Ezra Cole hat 2\u20131 gewonnen", "1. Cy, 2. Ann, 2. Dee, 4. Bob"),
        ("ja", "Ezra Coleが2\u20131で勝ち", "1位 Cy、2位 Ann、2位 Dee、4位 Bob"),
    ],
)
def test_in_another_language_it_reads_there(language, match, pod):
    won = result_phrase(Result(winner=2, game_wins={1: 1, 2: 2}), NAMES)
    order = result_phrase(Result(places={1: 2, 2: 4, 3: 1, 4: 2}), POD)
    with translation.override(language):
        assert (Summary("%(r)s", r=won).render(), Summary("%(r)s", r=order).render()) == (
            match,
            pod,
        )
