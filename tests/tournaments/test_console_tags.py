"""The console's shared card pieces (tournaments/templatetags/console.py)."""

import re

from tournaments.formats import FORMATS
from tournaments.formats.onevone import DRAW_CODES, MORE_RESULTS, RESULTS
from tournaments.templatetags.console import place_options, result_buttons


def codes(html: str) -> list[str]:
    return re.findall(r'name="result" value="([^"]+)"', html)


def test_result_buttons_every_result_in_swiss_no_draw_in_a_top_cut():
    play = FORMATS["1v1"]
    every = [code for code, _, _ in RESULTS + MORE_RESULTS]
    assert codes(result_buttons(play, "swiss")) == every
    cut = codes(result_buttons(play, "top_cut"))
    assert cut == [code for code in every if code not in DRAW_CODES]
    assert "id" in every and "id" not in cut and "1-1" not in cut  # a cut match needs a winner
    assert 'title="Intentional draw, reported 0-0-3 (MTR 2.4)"' in result_buttons(play, "swiss")


def test_place_options_mark_the_chosen_place():
    assert str(place_options(3, None)) == (
        '<option value="">place</option><option value="1">1</option>'
        '<option value="2">2</option><option value="3">3</option>'
    )
    assert '<option value="2" selected>2</option>' in place_options(4, 2)
    assert str(place_options(4, 2)).count("selected") == 1
