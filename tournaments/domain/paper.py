"""The paper pack's pure parts: the wall's "find your seat" order by last name.

A name's last name is taken to be its last word ("Bob Baker" -> "Baker"; "Ann de Vries" ->
"Vries"): the store types names as people give them, with no separate surname field, and the
sheet says which word it sorted by. Accents and case do not change the order ("Émile" sorts
with "Emile"), and a name of one word is its own last name.
"""

import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class WallName:
    """A name as the wall sheet prints it: `last` first, then the rest ("Baker", "Bob")."""

    last: str
    rest: str

    @property
    def letter(self) -> str:
        """The heading the name is listed under: its last name's first letter, unaccented."""
        return _plain(self.last)[:1].upper() or "#"


def _plain(text: str) -> str:
    """`text` without its accents, case-folded: "Émile" -> "emile"."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def wall_name(name: str) -> WallName:
    """`name` split at its last word: ("Baker", "Bob") for "Bob Baker"."""
    words = name.split()
    if not words:
        return WallName("", "")
    return WallName(words[-1], " ".join(words[:-1]))


def last_name_key(name: str) -> tuple[str, str, str]:
    """The order of the wall sheet: by last word, then the rest of the name, then as typed
    (so two players of the same name keep one order)."""
    split = wall_name(name)
    return _plain(split.last), _plain(split.rest), name
