"""A card's name as printed in another language, from a Scryfall bulk `all-cards` file
(https://scryfall.com/docs/api/bulk-data: every printing, in every language, each with its
`lang` and `printed_name`), so that a list pasted with German, French, Spanish, Italian,
Portuguese or Japanese names resolves to the same Oracle cards as the English one (issue 45).

Only what the resolver needs is kept from each printing: its language, its printed name
(the faces' printed names joined by " // " for a card of several faces, and the front face
alone too) and its Oracle id; one entry per (Oracle id, language, name), however many
printings repeat it. `printed_key` is the key a printed name is looked up by: as
`names.card_key` for the Latin scripts (accents, case and apostrophes do not matter), but a
Japanese name keeps its voicing marks (ギ is not キ; card_key's dropping of every combining
mark would make them one). Pure Python: no Django.
"""

import unicodedata
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from core.accents import without_latin_accents

from .names import HALVES, QUOTES

# Scryfall's codes of the languages Magic's cards are printed in that Guildhall reads
# (English is the Oracle name itself; "pt" is Scryfall's Portuguese, printed for Brazil).
LANGUAGES = frozenset({"de", "fr", "es", "it", "pt", "ja"})


@dataclass(frozen=True)
class PrintedName:
    oracle_id: str
    lang: str
    name: str

    @property
    def key(self) -> str:
        return printed_key(self.name)


def printed_key(name: str) -> str:
    """The lookup key of a printed name: NFKC, apostrophes straightened, accents dropped
    from Latin letters only, case-folded, spaces collapsed, halves joined by " // "."""
    text = unicodedata.normalize("NFKC", name or "").translate(QUOTES)
    text = " ".join(without_latin_accents(text).casefold().split())
    return " // ".join(part for part in HALVES.split(text) if part)


def printed_names(obj: object) -> Iterator[PrintedName]:
    """The printed names one Scryfall card object gives in the languages above: its whole
    name and, for several faces, its front face's; nothing for English, another language,
    a printing without a printed name, or an object that is not a card."""
    if not isinstance(obj, Mapping) or obj.get("object") != "card":
        return
    lang = obj.get("lang")
    if lang not in LANGUAGES:
        return
    faces = obj.get("card_faces") if isinstance(obj.get("card_faces"), list) else []
    raw_id = obj.get("oracle_id") or (
        faces[0].get("oracle_id") if faces and isinstance(faces[0], Mapping) else None
    )
    try:
        oracle_id = str(uuid.UUID(str(raw_id)))
    except ValueError:
        return
    names = [f.get("printed_name") for f in faces if isinstance(f, Mapping)]
    if faces and all(isinstance(n, str) and n.strip() for n in names):
        yield PrintedName(oracle_id, lang, " // ".join(n.strip() for n in names))
        yield PrintedName(oracle_id, lang, names[0].strip())
        return
    name = obj.get("printed_name")
    if isinstance(name, str) and name.strip():
        yield PrintedName(oracle_id, lang, name.strip())
