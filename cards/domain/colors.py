"""A color identity as mana symbols: each color's symbol (the mana font's class names,
`ms-w` ... `ms-g`, `ms-c` for colorless) and the words a screen reader says instead
("White, Blue"; "Colorless"). Pure Python: no Django."""

from dataclasses import dataclass
from functools import lru_cache

from core.translate import gettext as _


def N_(message: str) -> str:
    """Marks a name for the catalogue; translated where a label is made (`pips`)."""
    return message


NAMES = {
    "W": N_("White"),
    "U": N_("Blue"),
    "B": N_("Black"),
    "R": N_("Red"),
    "G": N_("Green"),
    "C": N_("Colorless"),
}


@dataclass(frozen=True)
class Pips:
    symbols: tuple[str, ...]  # "w", "u", ... in WUBRG order; ("c",) for colorless
    label: str

    def __bool__(self) -> bool:
        return bool(self.symbols)


NO_PIPS = Pips((), "")


@lru_cache(maxsize=64)
def _letters(identity: str) -> tuple[str, ...]:
    letters = tuple(c for c in "WUBRG" if c in identity.upper())
    if not letters:
        return ("C",) if identity.upper() == "C" else ()
    return letters


def pips(identity: str) -> Pips:
    """The symbols of a stored identity ("WU", "C" for colorless); none for "" (a deck whose
    commanders are not known cards). The words in the active language (the cache keeps only
    the letters, which are the same in every language)."""
    letters = _letters(identity)
    if not letters:
        return NO_PIPS
    # Translators: the separator between the names of colors ("White, Blue").
    return Pips(tuple(c.lower() for c in letters), _(", ").join(_(NAMES[c]) for c in letters))
