"""Player names as people read them: one spelling for what looks the same, and a warning for
names that only look alike.

`name_normalize` is applied to every name on its way in (the game form, the join form, a
CSV import, the API, a TO's walk-in, the admin): NFKC (full-width letters, ligatures and
compatibility forms become their plain letters), then the characters nobody sees are
removed (zero-width space and joiners, word joiner, byte-order mark, soft hyphen, direction
marks, variation selectors and the other default-ignorable code points of Unicode's
DerivedCoreProperties), then white space of any kind is folded to single spaces. So
"Reg1" followed by a zero-width space is "Reg1", the same player.

`name_skeleton` is the comparison key for look-alikes (after Unicode's UTS #39 skeleton):
the normalized name, case-folded, each letter that is a confusable of a Latin letter
mapped to it, from the Unicode confusables table that the `confusable_homoglyphs` package
ships. "R\u0435g1" (with a Cyrillic e) has the skeleton of "Reg1": a different player the
database would happily create, so the person creating it is asked to confirm first.
Names in other scripts are left alone: "Иван" is a fine name; only a Latin name it would
pass for makes a warning.
"""

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from confusable_homoglyphs import confusables

# Default-ignorable code points that are not format characters (category Cf, all removed):
# the combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian and
# Unicode variation selectors.
_IGNORABLE = frozenset(
    [
        *(0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0),
        *range(0x180B, 0x1810),
        *range(0xFE00, 0xFE10),
        *range(0xE0100, 0xE01F0),
    ]
)


def _invisible(char: str) -> bool:
    return unicodedata.category(char) == "Cf" or ord(char) in _IGNORABLE


def name_normalize(text: str) -> str:
    """The name as stored: NFKC, invisible characters removed, white space folded."""
    text = unicodedata.normalize("NFKC", text)
    if not text.isascii():
        text = "".join(char for char in text if not _invisible(char))
        text = unicodedata.normalize("NFKC", text)
    return " ".join(text.split())


@lru_cache(maxsize=4096)
def _latin_look_alike(char: str) -> str:
    """The Latin letter or digit `char` passes for, or `char` itself."""
    found = confusables.is_confusable(char, greedy=True, preferred_aliases=["latin"])
    for entry in found or ():
        for glyph in entry["homoglyphs"]:
            if glyph["n"].startswith(("LATIN ", "DIGIT ")) and len(glyph["c"]) == 1:
                return glyph["c"].casefold()
    return char


def name_skeleton(name: str) -> str:
    """The key two names that read alike share (see the module's docstring)."""
    folded = name_normalize(name).casefold()
    if folded.isascii():
        # ASCII letters are their own skeleton; "1" and "l" are told apart by the eye of
        # whoever types them, and the case-insensitive match already covers "reg1"/"Reg1".
        return folded
    return "".join(char if char.isascii() else _latin_look_alike(char) for char in folded)


def look_alikes(new_names: Iterable[str], existing_names: Iterable[str]) -> dict[str, str]:
    """Each new name that reads like an existing name but is not it (ignoring case), to the
    first such existing name."""
    by_skeleton: dict[str, list[str]] = {}
    for existing in existing_names:
        by_skeleton.setdefault(name_skeleton(existing), []).append(existing)
    found: dict[str, str] = {}
    for name in new_names:
        folded = name.casefold()
        for match in by_skeleton.get(name_skeleton(name), ()):
            if match.casefold() != folded:
                found[name] = match
                break
    return found
