"""A store's accent colour (issues 33, 43): what it may be, and the palette drawn from it.

Any colour a store picks is accepted; what is drawn with it is then chosen for contrast
(`store_palette`), in the light scheme and in the dark one:

- the header is the store's colour itself, with white text on it, or the site's dark ink
  (black when neither reaches 4.5:1) when white is unreadable, as on a pale yellow;
- the accent filled on the page (primary buttons, the current tab) is the colour moved in
  lightness until it stands out 3:1 from the page and its cards (WCAG 2.1's 1.4.11 for
  what is not text), with its own readable text;
- the accent as text on the page (links, secondary buttons, table numbers) is moved until
  it reaches 4.5:1 on the page, its cards, a table's stripe, the messages' backgrounds and
  the accent's pale tint.

The colour is moved in Oklab lightness (Björn Ottosson, https://bottosson.github.io/posts/oklab/),
its hue kept and as much chroma as sRGB can show, in the smallest steps that reach the ratio,
so a colour that already passes is kept as it is. Hover and press shades and the pale tint
are CSS's `color-mix(in oklab, ...)` (https://www.w3.org/TR/css-color-5/#color-mix), which
`mix_oklab` mirrors so that the tests can check the text on them too. The ratio is WCAG 2.x's:
(L1 + 0.05) / (L2 + 0.05) of the relative luminances of the two sRGB colours
(https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio). Plain Python, no Django.
"""

import re
from dataclasses import dataclass

from core.translate import gettext as _

AA_TEXT = 4.5  # WCAG 2.x AA, normal text (1.4.3)
AA_UI = 3.0  # WCAG 2.1 AA, what is not text: a button's fill against the page (1.4.11)
WHITE = "#ffffff"
BLACK = "#000000"
_HEX = re.compile(r"^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")

# The schemes' page colours, as in core/static/guildhall/tokens.css (compared by a test):
# a card (--paper), the page (--wash), a table's even row (--stripe); the messages' and
# badges' backgrounds, which a link may sit on (the console's "Show only these"); the dark ink.
LIGHT = {"paper": "#ffffff", "wash": "#f4f5f8", "stripe": "#f8f9fb"}
DARK = {"paper": "#1b2029", "wash": "#12161d", "stripe": "#1f252f"}
LIGHT_STATES = {
    "good-bg": "#e7f5ec",
    "bad-bg": "#fdecea",
    "warn-bg": "#fff4e0",
    "info-bg": "#e8f1fb",
}
DARK_STATES = {
    "good-bg": "#15301f",
    "bad-bg": "#3a1714",
    "warn-bg": "#352608",
    "info-bg": "#13283a",
}
INK = "#1d2330"
TINT = 0.10  # the accent's pale tint: this much of the fill mixed into the card's colour


class AccentProblem(ValueError):
    """The text is not a colour: the message says why."""


def parse_hex(text: str) -> tuple[int, int, int]:
    """'#1f5f7a', '1F5F7A' or '#abc' as (r, g, b) in 0..255; AccentProblem otherwise."""
    match = _HEX.match((text or "").strip())
    if not match:
        raise AccentProblem(
            _("“%(value)s” is not a colour: write it as # and six hex digits, e.g. #1f5f7a.")
            % {"value": (text or "").strip()[:20]}
        )
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(value: float) -> int:
    value = min(1.0, max(0.0, value))
    c = value * 12.92 if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055
    return round(c * 255)


def relative_luminance(rgb: tuple[int, int, int]) -> float:
    r, g, b = (_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG's contrast ratio of two hex colours, from 1 (the same) to 21 (black on white)."""
    la, lb = relative_luminance(parse_hex(a)), relative_luminance(parse_hex(b))
    light, dark = max(la, lb), min(la, lb)
    return (light + 0.05) / (dark + 0.05)


def _oklab(colour: str) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in parse_hex(colour))
    lms = (
        0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b,
        0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b,
        0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b,
    )
    l_, m_, s_ = (v ** (1 / 3) for v in lms)
    return (
        0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
        1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
        0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_,
    )


def _linear_rgb(lab: tuple[float, float, float]) -> tuple[float, float, float]:
    L, a, b = lab
    l_ = L + 0.3963377774 * a + 0.2158037573 * b
    m_ = L - 0.1055613458 * a - 0.0638541728 * b
    s_ = L - 0.0894841775 * a - 1.2914855480 * b
    long, middle, short = l_**3, m_**3, s_**3  # the cone responses, LMS
    return (
        4.0767416621 * long - 3.3077115913 * middle + 0.2309699292 * short,
        -1.2684380046 * long + 2.6097574011 * middle - 0.3413193965 * short,
        -0.0041960863 * long - 0.7034186147 * middle + 1.7076147010 * short,
    )


def _from_oklab(lab: tuple[float, float, float]) -> str:
    return _hex(tuple(_encoded(c) for c in _linear_rgb(lab)))


def _with_lightness(colour: str, lightness: float) -> str:
    """`colour` at Oklab lightness `lightness` (0..1), its hue kept and as much of its chroma
    as sRGB can show at that lightness (less near black and white)."""
    _, a, b = _oklab(colour)
    low, high = 0.0, 1.0  # the share of the chroma kept, found by bisection
    if all(-1e-6 <= c <= 1 + 1e-6 for c in _linear_rgb((lightness, a, b))):
        low = 1.0
    for _ in range(20):
        if low == 1.0:
            break
        middle = (low + high) / 2
        rgb = _linear_rgb((lightness, a * middle, b * middle))
        if all(-1e-6 <= c <= 1 + 1e-6 for c in rgb):
            low = middle
        else:
            high = middle
    return _from_oklab((lightness, a * low, b * low))


def mix_oklab(colour: str, other: str, amount: float) -> str:
    """`colour` with `amount` (0..1) of `other` mixed in, in Oklab, clipped to sRGB: what CSS
    draws for `color-mix(in oklab, colour, other <amount * 100>%)`."""
    a, b = _oklab(colour), _oklab(other)
    return _from_oklab(tuple(x + (y - x) * amount for x, y in zip(a, b, strict=True)))


def readable_ink(background: str) -> str:
    """The text colour for `background`: white when it reaches 4.5:1 (most accents), else the
    site's dark ink, else black (which always does where white does not)."""
    for ink in (WHITE, INK):
        if contrast_ratio(ink, background) >= AA_TEXT:
            return ink
    return BLACK


def _reaching(colour: str, backgrounds: list[str], ratio: float, *, darker: bool) -> str:
    """`colour` made darker (or lighter) in Oklab lightness, in the smallest of 100 steps,
    until it reaches `ratio` on every one of `backgrounds`: black on a light page and white
    on a dark one, where the steps end, always do."""
    start = _oklab(colour)[0]
    end = 0.0 if darker else 1.0
    for step in range(101):
        candidate = _with_lightness(colour, start + (end - start) * step / 100) if step else colour
        if min(contrast_ratio(candidate, b) for b in backgrounds) >= ratio:
            return candidate
    return BLACK if darker else WHITE


@dataclass(frozen=True)
class SchemePalette:
    """What one scheme draws from the store's colour (the tokens they become, in brackets)."""

    header: str  # the header's background, the store's colour (--store)
    header_ink: str  # the header's text (--store-ink)
    fill: str  # the accent filled on the page: a primary button, the current tab (--brand)
    fill_ink: str  # text on the fill (--brand-ink)
    away: str  # what a hover or a press mixes into the fill: away from its text (--brand-away)
    text: str  # the accent as text on the page: links, secondary buttons (--brand-text)
    tint: str  # the fill's pale tint, a secondary button's hover (--brand-tint)

    def tokens(self) -> dict[str, str]:
        return {
            "store": self.header,
            "store-ink": self.header_ink,
            "brand": self.fill,
            "brand-ink": self.fill_ink,
            "brand-away": self.away,
            "brand-text": self.text,
            "brand-tint": self.tint,
            "accent": self.text,
        }


def scheme_palette(colour: str, page: dict[str, str], states: dict[str, str]) -> SchemePalette:
    """The store's `colour` on a scheme whose page colours are `page` (LIGHT or DARK) and whose
    messages' backgrounds are `states` (LIGHT_STATES or DARK_STATES)."""
    colour = _hex(parse_hex(colour))
    darker = relative_luminance(parse_hex(page["wash"])) >= 0.18  # a light page
    fill = _reaching(colour, list(page.values()), AA_UI, darker=darker)
    fill_ink = readable_ink(fill)
    tint = mix_oklab(page["paper"], fill, TINT)
    text = _reaching(colour, [*page.values(), *states.values(), tint], AA_TEXT, darker=darker)
    return SchemePalette(
        header=colour,
        header_ink=readable_ink(colour),
        fill=fill,
        fill_ink=fill_ink,
        away=BLACK if fill_ink == WHITE else WHITE,
        text=text,
        tint=tint,
    )


def store_palette(colour: str) -> dict[str, SchemePalette]:
    """The store's colour as the light scheme's and the dark scheme's palettes."""
    return {
        "light": scheme_palette(colour, LIGHT, LIGHT_STATES),
        "dark": scheme_palette(colour, DARK, DARK_STATES),
    }


def accent_clean(text: str) -> str:
    """The accent as stored ('#1f5f7a', lower case), '' for none; AccentProblem when it is not
    a colour. Any colour is accepted: what is drawn on it is chosen for contrast."""
    if not (text or "").strip():
        return ""
    return _hex(parse_hex(text))
