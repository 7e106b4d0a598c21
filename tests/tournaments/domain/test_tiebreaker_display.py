"""Each tiebreaker in the registry says how the standings show it: the percentages (MTR
Appendix C's OMW%, GW%, OGW%, and the pods' 4-pod win share) as 0-1 fractions shown as a
percentage, the average opponent rating rounded, the rest as they are."""

import pytest

from tournaments.domain.standings import TIEBREAKERS, Tiebreaker, match_points, register


def test_the_percentages_are_the_ones_the_standings_have_always_shown_so():
    shown = {name for name, tiebreaker in TIEBREAKERS.items() if tiebreaker.is_percent}
    assert shown == {"omw", "gw", "ogw", "pod4_win_share"}
    assert TIEBREAKERS["avg_opp_rating"].shown_as == "whole"


@pytest.mark.parametrize(
    "metric, value, text",
    [
        ("omw", 1 / 3, "33.3%"),
        ("gw", 0.5, "50.0%"),
        ("pod4_win_share", 1.0, "100.0%"),
        ("avg_opp_rating", 1512.4, "1512"),
        ("buchholz", 4.5, "4.5"),
        ("wins", 3.0, "3"),
        ("ogw", None, "\u2013"),
    ],
)
def test_a_value_is_shown_as_its_tiebreaker_says(metric, value, text):
    """The values as the standings carry them for display (StandingRow.metrics: floats)."""
    assert TIEBREAKERS[metric].show(value) == text


def test_a_display_the_registry_does_not_know_is_refused():
    odd = Tiebreaker("odd", "Odd", True, match_points, "nowhere", shown_as="stars")
    with pytest.raises(ValueError, match="shown_as is one of number, percent, whole"):
        register(odd)
    assert "odd" not in TIEBREAKERS
