"""A color identity as mana symbols: each color's symbol (the mana font's class names,
`ms-w` ... `ms-g`, `ms-c` for colorless) and the words a screen reader says instead
("White, Blue"; "Colorless"). Pure Python: no Django."""

from dataclasses import dataclass
from functools import lru_cache

NAMES = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green", "C": "Colorless"}


@dataclass(frozen=True)
class Pips:
    symbols: tuple[str, ...]  # "w", "u", ... in WUBRG order; ("c",) for colorless
    label: str

    def __bool__(self) -> bool:
        return bool(self.symbols)


NO_PIPS = Pips((), "")


@lru_cache(maxsize=64)
def pips(identity: str) -> Pips:
    """The symbols of a stored identity ("WU", "C" for colorless); none for "" (a deck whose
    commanders are not known cards)."""
    letters = [c for c in "WUBRG" if c in identity.upper()]
    if not letters:
        return Pips(("c",), NAMES["C"]) if identity.upper() == "C" else NO_PIPS
    return Pips(tuple(c.lower() for c in letters), ", ".join(NAMES[c] for c in letters))
