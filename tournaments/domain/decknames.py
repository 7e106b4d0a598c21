"""One deck, one name: a Commander deck's name as a key for grouping, whatever the letter
case, the spacing or the order of its partners ("kinnan, bonder prodigy" and "Kinnan, Bonder
Prodigy"; "Thrasios / Tymna" and "Tymna / Thrasios"), and the name to show for a group: the
spelling most used (the first one given on a tie), its partners in a stable order.

Partners are written with one slash or a plus between them ("Thrasios / Tymna", "Tymna +
Thrasios"); a double slash stays inside one name, as a double-faced card's ("Esika, God of
the Tree // The Prismatic Bridge"). Pure Python: no Django.
"""

import re
import unicodedata
from collections.abc import Iterable

# One slash that is not part of "//", or a plus between spaces.
PARTNERS = re.compile(r"\s*(?<!/)/(?!/)\s*|\s+\+\s+")
QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})


def _partner_key(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).translate(QUOTES)
    return " ".join(text.casefold().split())


def partners(name: str) -> list[str]:
    """The names in `name` (one, or a partner pair), spaces tidied, empty parts left out."""
    return [" ".join(part.split()) for part in PARTNERS.split(name) if part.strip()]


def deck_key(name: str) -> str:
    """The key a deck's name groups by: each partner case-folded, NFKC, spaces and
    apostrophes tidied, the partners sorted. "" for a name with nothing in it."""
    return " / ".join(sorted(_partner_key(part) for part in partners(name)))


def stable_order(name: str) -> str:
    """`name` with its partners in the key's order, joined by " / " (one name: as given,
    spaces tidied)."""
    return " / ".join(sorted(partners(name), key=lambda part: (_partner_key(part), part)))


def display_names(spellings: Iterable[tuple[str, int]]) -> dict[str, str]:
    """Key -> the name to show, from (spelling, uses) in the order they were first given:
    the spelling most used, the first given on a tie, its partners in a stable order."""
    best: dict[str, tuple[int, int, str]] = {}
    for index, (spelling, uses) in enumerate(spellings):
        key = deck_key(spelling)
        if not key:
            continue
        current = best.get(key)
        if current is None or (-uses, index) < (current[0], current[1]):
            best[key] = (-uses, index, spelling)
    return {key: stable_order(spelling) for key, (_, _, spelling) in best.items()}
