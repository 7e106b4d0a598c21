"""The hot fragments' HTML, pinned byte for byte: the console's cards and player list, the
pairings, the "find my seat" and projector rows, the standings rows. Each expected file in
`golden/` was copied from the fragments' output on the fixed inputs of `fragment_inputs.py`
and read line by line before the markup moved into template files; whichever engine draws a
fragment, it must draw exactly this (escaping included: `&#x27;`, `&quot;`, as Django's)."""

from pathlib import Path

import pytest

from tournaments.formats import FORMATS
from tournaments.templatetags.console import result_buttons

from . import fragment_inputs as inputs

GOLDEN = Path(__file__).parent / "golden"


def golden(name: str) -> str:
    return (GOLDEN / f"{name}.html").read_text()


def test_pod_cards():
    assert inputs.pod_cards() == golden("pod_cards")


def test_match_cards():
    # The result buttons are the format's own partial (formats/match.html), drawn once.
    buttons = str(result_buttons(FORMATS["1v1"], "top_cut"))
    assert inputs.match_cards() == golden("match_cards").replace("{buttons}", buttons)


@pytest.mark.parametrize("status", ["swiss", "top_cut", "finished"])
def test_entry_list(status):
    name = {"top_cut": "cut"}.get(status, status)
    assert inputs.entry_list(status) == golden(f"entry_{name}")


def test_pod_pairings():
    html = inputs.render("{% load pairings %}{% pod_tables tables %}", tables=inputs.pod_board())
    assert html == golden("pod_tables")


def test_match_pairings():
    html = inputs.render(
        "{% load pairings %}{% match_tables tables %}", tables=inputs.match_board()
    )
    assert html == golden("match_tables")


@pytest.mark.parametrize(("pods", "name"), [("True", "pods"), ("False", "1v1")])
def test_finder_rows(pods, name):
    source = f"{{% load pairings %}}{{% finder_rows finder {pods} %}}"
    assert inputs.render(source, finder=inputs.finder()) == golden(f"finder_{name}")


@pytest.mark.parametrize(("pods", "name"), [("True", "pods"), ("False", "1v1")])
def test_projector_rows(pods, name):
    source = f"{{% load pairings %}}{{% projector_rows finder {pods} %}}"
    assert inputs.render(source, finder=inputs.finder()) == golden(f"projector_{name}")


def test_standing_rows():
    assert inputs.standings() == golden("standings")
    assert inputs.standings(inputs.final_placings()) == golden("standings_final")
