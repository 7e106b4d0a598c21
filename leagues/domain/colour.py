"""A store's accent colour (issue 33): what it may be, by the contrast of the text drawn on it.

The accent is the store's header and current tab, with white text on it (the site's header
text), so it is accepted only when white text on it reaches WCAG 2's AA contrast for normal
text, 4.5:1; otherwise it is refused with a sentence saying the ratio and what to pick. The
ratio is WCAG 2.x's: (L1 + 0.05) / (L2 + 0.05) of the relative luminances of the two sRGB
colours (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio). Plain Python, no Django.
"""

import re

AA_TEXT = 4.5
WHITE = "#ffffff"
_HEX = re.compile(r"^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


class AccentProblem(ValueError):
    """The colour is not a colour, or text on it would be unreadable: the message says why."""


def parse_hex(text: str) -> tuple[int, int, int]:
    """'#1f5f7a', '1F5F7A' or '#abc' as (r, g, b) in 0..255; AccentProblem otherwise."""
    match = _HEX.match((text or "").strip())
    if not match:
        raise AccentProblem(
            f"“{(text or '').strip()[:20]}” is not a colour: write it as # and six hex digits, "
            "e.g. #1f5f7a."
        )
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def relative_luminance(rgb: tuple[int, int, int]) -> float:
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG's contrast ratio of two hex colours, from 1 (the same) to 21 (black on white)."""
    la, lb = relative_luminance(parse_hex(a)), relative_luminance(parse_hex(b))
    light, dark = max(la, lb), min(la, lb)
    return (light + 0.05) / (dark + 0.05)


def accent_clean(text: str) -> str:
    """The accent as stored ('#1f5f7a', lower case), '' for none; AccentProblem when it is not
    a colour or white text on it is below 4.5:1."""
    if not (text or "").strip():
        return ""
    r, g, b = parse_hex(text)
    colour = f"#{r:02x}{g:02x}{b:02x}"
    ratio = contrast_ratio(colour, WHITE)
    if ratio < AA_TEXT:
        raise AccentProblem(
            f"White text on {colour} would be hard to read: its contrast is {ratio:.1f}:1 and "
            f"readable text needs at least {AA_TEXT}:1 (WCAG AA). Pick a darker colour."
        )
    return colour
