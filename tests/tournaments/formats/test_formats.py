"""The formats as strategies (tournaments.formats): one object per format, chosen once."""

import pytest
from django.template.loader import get_template

from tournaments.formats import FORMATS, OneVOne, Pods, format_for
from tournaments.models import Tournament

# The partials the pages include from `event.play.template`.
PARTIALS = [
    "card",
    "report-form",
    "pairings",
    "finder",
    "player-rounds",
    "projector-seats",
    "bracket-help",
    "empty-slots",
    "cut-plan",
]


def test_format_for_chooses_by_the_event_format():
    assert isinstance(format_for(Tournament(format="1v1")), OneVOne)
    assert isinstance(format_for(Tournament(format="pods")), Pods)
    assert Tournament(format="pods").play is FORMATS["pods"]
    assert set(FORMATS) == set(Tournament.Format.values)


@pytest.mark.parametrize("key", sorted(FORMATS))
@pytest.mark.parametrize("partial", PARTIALS)
def test_every_format_has_every_partial_the_pages_include(key, partial):
    get_template(f"{FORMATS[key].template}#{partial}")


def test_pods_refuse_pairing_by_hand_and_a_cut_of_eight():
    with pytest.raises(Exception, match="for 1v1 matches") as refused:
        Pods().check_edit("pair")
    assert refused.value.code == "format"
    OneVOne().check_edit("pair")
    with pytest.raises(Exception, match="top 4") as cut:
        Pods().check_top_cut(8)
    assert cut.value.field == "top_cut"
    OneVOne().check_top_cut(8)
