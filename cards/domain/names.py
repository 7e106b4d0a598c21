"""A card's name as a lookup key: "lightning bolt", "Lightning  Bolt" and "LIGHTNING BOLT"
are one card; so are "Nazgul" and "Nazgûl", "Fire/Ice" and "Fire // Ice", and curly and
straight apostrophes. Pure Python: no Django."""

import re
import unicodedata

QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
# One slash or a double slash between a split or double-faced card's halves.
HALVES = re.compile(r"\s*/{1,2}\s*")


def card_key(name: str) -> str:
    """The key a card name is looked up by: NFKD with accents dropped, case-folded,
    apostrophes straightened, spaces collapsed, halves joined by " // "."""
    text = unicodedata.normalize("NFKD", name or "").translate(QUOTES)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = " ".join(text.casefold().split())
    return " // ".join(part for part in HALVES.split(text) if part)


def front_face(name: str) -> str:
    """The first face's name of a split or double-faced card ("Esika, God of the Tree // The
    Prismatic Bridge" -> "Esika, God of the Tree"); a one-faced name as given."""
    return name.split(" // ", 1)[0]
