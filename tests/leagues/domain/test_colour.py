"""A store's accent colour: accepted when white text on it is readable (WCAG AA, 4.5:1)."""

import pytest

from leagues.domain.colour import AccentProblem, accent_clean, contrast_ratio


@pytest.mark.parametrize(
    ("a", "b", "ratio"),
    [
        ("#000000", "#ffffff", 21.0),  # WCAG's extremes
        ("#ffffff", "#ffffff", 1.0),
        ("#767676", "#ffffff", 4.54),  # the lightest grey that passes on white
        ("#777777", "#ffffff", 4.48),  # one step lighter fails
        ("#7a2e1f", "#ffffff", 9.38),  # Guildhall's brand
    ],
)
def test_contrast_ratio_matches_worked_values(a, b, ratio):
    assert contrast_ratio(a, b) == pytest.approx(ratio, abs=0.01)
    assert contrast_ratio(b, a) == pytest.approx(ratio, abs=0.01)  # symmetric


@pytest.mark.parametrize(
    ("given", "stored"),
    [("#1F5F7A", "#1f5f7a"), ("1f5f7a", "#1f5f7a"), ("#036", "#003366"), (" ", ""), ("", "")],
)
def test_a_readable_accent_is_stored_in_one_spelling(given, stored):
    assert accent_clean(given) == stored


@pytest.mark.parametrize("colour", ["#ffd700", "#777777", "#ffffff", "#00ff00"])
def test_an_accent_white_text_cannot_be_read_on_is_refused_with_the_ratio(colour):
    with pytest.raises(AccentProblem) as refused:
        accent_clean(colour)
    message = str(refused.value)
    assert colour in message and ":1" in message and "4.5:1" in message


@pytest.mark.parametrize("text", ["red", "#12345", "#gggggg", "rgb(0,0,0)", "#1f5f7a;}"])
def test_what_is_not_a_hex_colour_is_refused(text):
    with pytest.raises(AccentProblem, match="is not a colour"):
        accent_clean(text)
