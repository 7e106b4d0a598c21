"""A store's accent colour (issues 33, 43): any colour is accepted, and the palette drawn from
it is readable in the light and the dark scheme (WCAG AA: 4.5:1 for text, 3:1 for a fill
against the page)."""

import re
from pathlib import Path

import pytest

from leagues.domain.colour import (
    DARK,
    DARK_STATES,
    INK,
    LIGHT,
    LIGHT_STATES,
    AccentProblem,
    accent_clean,
    contrast_ratio,
    mix_oklab,
    readable_ink,
    store_palette,
)

TOKENS_CSS = Path(__file__).resolve().parents[3] / "core" / "static" / "guildhall" / "tokens.css"
# A store's colours as stores pick them: a very light yellow and a very dark navy (issue 43),
# a pure yellow, white, black, a mid grey (where white and black text are closest), a red, a
# bright green, a teal that already passes everywhere in the light scheme, Guildhall's brand.
STORE_COLOURS = [
    "#fff9c4",
    "#0a1230",
    "#ffff00",
    "#ffffff",
    "#000000",
    "#777777",
    "#ff0000",
    "#00ff00",
    "#1f5f7a",
    "#7a2e1f",
]
# color-mix() percentages of tokens.css's --brand-hover and --brand-press.
HOVER, PRESS = 0.15, 0.30


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
    [
        ("#1F5F7A", "#1f5f7a"),
        ("1f5f7a", "#1f5f7a"),
        ("#036", "#003366"),
        (" ", ""),
        ("", ""),
        # White text is unreadable on these: the palette puts dark text on them instead.
        ("#FFF9C4", "#fff9c4"),
        ("#ffd700", "#ffd700"),
        ("#ffffff", "#ffffff"),
    ],
)
def test_any_colour_is_stored_in_one_spelling(given, stored):
    assert accent_clean(given) == stored


@pytest.mark.parametrize("text", ["red", "#12345", "#gggggg", "rgb(0,0,0)", "#1f5f7a;}"])
def test_what_is_not_a_hex_colour_is_refused(text):
    with pytest.raises(AccentProblem, match="is not a colour"):
        accent_clean(text)


@pytest.mark.parametrize(
    ("background", "ink"),
    [
        ("#1f5f7a", "#ffffff"),  # 7.1:1 with white
        ("#fff9c4", INK),  # pale yellow: white is 1.1:1, the site's ink 14.8:1
        ("#767676", "#ffffff"),  # white just passes (4.54:1)
        ("#777777", "#000000"),  # white 4.48:1 and the ink 3.9:1 fail; black is 4.69:1
    ],
)
def test_the_text_on_a_colour_is_white_else_the_ink_else_black(background, ink):
    assert readable_ink(background) == ink


def test_a_mix_in_oklab_is_what_css_draws():
    # color-mix(in oklab, white, black 50%) is rgb(99 99 99): Oklab lightness 0.5 is 0.125 in
    # linear light, 0.389 encoded.
    assert mix_oklab("#ffffff", "#000000", 0.5) == "#636363"
    assert mix_oklab("#1f5f7a", "#000000", 0) == "#1f5f7a"
    assert mix_oklab("#1f5f7a", "#ffffff", 1) == "#ffffff"


@pytest.mark.parametrize("colour", STORE_COLOURS)
@pytest.mark.parametrize(
    ("scheme", "page", "states"), [("light", LIGHT, LIGHT_STATES), ("dark", DARK, DARK_STATES)]
)
def test_every_tone_of_a_stores_palette_is_readable(colour, scheme, page, states):
    tones = store_palette(colour)[scheme]
    surfaces = list(page.values())  # a card, the page, a table's stripe
    # The header is the store's own colour, with readable text.
    assert tones.header == colour
    assert contrast_ratio(tones.header_ink, tones.header) >= 4.5
    # A primary button's text on its fill, at rest, hovered and pressed.
    for amount in (0, HOVER, PRESS):
        fill = mix_oklab(tones.fill, tones.away, amount)
        assert contrast_ratio(tones.fill_ink, fill) >= 4.5, (amount, fill)
    # The fill stands out from the page and its cards (a button, the current tab).
    assert min(contrast_ratio(tones.fill, s) for s in surfaces) >= 3
    # The accent as text (links, secondary buttons) on every surface, on a message (a link in
    # the console's "Waiting for..."), on the pale tint.
    backgrounds = [*surfaces, *states.values(), tones.tint]
    assert min(contrast_ratio(tones.text, s) for s in backgrounds) >= 4.5
    assert tones.tokens()["accent"] == tones.text


def test_a_colour_that_already_passes_is_kept_and_one_that_does_not_keeps_its_hue():
    teal = store_palette("#1f5f7a")["light"]
    assert teal.fill == teal.text == "#1f5f7a"
    # A pale yellow on white: darkened to an olive-yellow with dark text, not a grey.
    yellow = store_palette("#fff9c4")["light"]
    r, g, b = (int(yellow.fill[i : i + 2], 16) for i in (1, 3, 5))
    assert r > b + 40 and g > b + 40, yellow.fill
    assert yellow.fill_ink == INK and yellow.header_ink == INK
    # A dark navy on the dark scheme's page: lightened, still blue, white text on it.
    navy = store_palette("#0a1230")["dark"]
    r, g, b = (int(navy.fill[i : i + 2], 16) for i in (1, 3, 5))
    assert b > r + 30, navy.fill
    assert navy.fill_ink == "#ffffff"


def _declared(css: str, token: str) -> str:
    return re.search(rf"--{token}:\s*(#[0-9a-f]{{6}})", css).group(1)


def test_the_page_colours_are_the_schemes_tokens():
    """The palette is measured against the page colours of tokens.css: the same values."""
    css = TOKENS_CSS.read_text()
    light, dark = css.split("@media (prefers-color-scheme: dark)")
    for name, value in {**LIGHT, **LIGHT_STATES}.items():
        assert _declared(light, name) == value, name
    for name, value in {**DARK, **DARK_STATES}.items():
        assert _declared(dark, name) == value, name
    assert _declared(light, "ink") == INK
    assert f"var(--brand-away) {round(HOVER * 100)}%" in css
    assert f"var(--brand-away) {round(PRESS * 100)}%" in css
