"""seasons.selectors: what the pages say a new finish must beat."""

from seasons.domain.rules import LIMITLESS_EXAMPLE, STORE_POINTS
from seasons.selectors import band_label, next_best_text

LIMITLESS = LIMITLESS_EXAMPLE.event_type


def test_at_the_limit_the_weakest_counted_finish_and_the_place_that_beats_it():
    tables = {LIMITLESS: LIMITLESS_EXAMPLE}
    # The weakest of ten counted finishes paid 12 (a 5th-8th): a 3rd-4th (14) beats it.
    text = next_best_text([(LIMITLESS, 12)], tables, {LIMITLESS: 16}, many=False)
    assert text == "more than 12 points (4th or better of 16)"
    assert next_best_text([(LIMITLESS, 0)], tables, {}, many=False) == "any finish counts"


def test_no_limit_says_nothing_and_several_types_are_named():
    tables = {LIMITLESS: LIMITLESS_EXAMPLE, STORE_POINTS.event_type: STORE_POINTS}
    to_beat = [(LIMITLESS, 0), (STORE_POINTS.event_type, 0)]
    assert next_best_text(to_beat, tables, {}, many=True) == (
        "Limitless series event: any finish counts"
    )
    assert next_best_text([(STORE_POINTS.event_type, 0)], tables, {}, many=False) == ""


def test_band_labels():
    assert band_label(1, 1) == "1st"
    assert band_label(3, 4) == "3rd\u20134th"
