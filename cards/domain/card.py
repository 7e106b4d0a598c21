"""One Magic card as the deck rules read it, and how it is read from a Scryfall card object
(https://scryfall.com/docs/api/cards): its Oracle id and name, color identity, type line,
the rules text that matters to deck building, and its legality per format.

What a card may do in a deck, from the Comprehensive Rules (CR) and its text:
- commander: a legendary creature (CR 903.3), or a card whose text says "can be your
  commander"; a Background only as the second commander of a creature that has "Choose a
  Background";
- pairing (CR 702.124, Partner and its variants): "Partner" pairs with "Partner", "Partner
  with NAME" only with NAME, "Partner—QUALITY" with the same quality, "Friends forever" with
  "Friends forever", "Choose a Background" with a Background, "Doctor's companion" with a
  Time Lord Doctor;
- copies: "A deck can have any number of cards named ..." or "... up to seven cards named ..."
  overrides the singleton and four-copy rules (CR 903.5b, 100.2a).
Pure Python: no Django."""

import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field

from .names import card_key, front_face

COLORS = "WUBRG"
ANY_NUMBER = 10_000  # "any number": more than any list may hold
NUMBERS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
COPIES = re.compile(
    r"A deck can have (any number of|up to (\w+)) cards named", re.IGNORECASE
)  # fmt: skip
# Scryfall objects that are no card a deck may hold.
NOT_CARDS = {
    "token", "double_faced_token", "emblem", "art_series", "planar", "scheme", "vanguard",
}  # fmt: skip
REMINDER = re.compile(r"\s*\([^)]*\)")
COMPANION = re.compile(r"^Companion\s*(?:\u2014|--)", re.MULTILINE)


class CardDataError(ValueError):
    """A card object without what every card has (its index in the file is told)."""


@dataclass(frozen=True)
class Card:
    oracle_id: str
    name: str
    type_line: str = ""
    oracle_text: str = ""
    color_identity: str = ""  # letters in WUBRG order
    legalities: Mapping[str, str] = field(default_factory=dict)
    layout: str = "normal"

    @property
    def key(self) -> str:
        return card_key(self.name)

    @property
    def front_type(self) -> str:
        return self.type_line.split(" // ", 1)[0]

    @property
    def supertypes(self) -> list[str]:
        return self.front_type.split("—", 1)[0].split()

    @property
    def subtypes(self) -> list[str]:
        parts = self.front_type.split("—", 1)
        return parts[1].split() if len(parts) == 2 else []

    @property
    def is_basic(self) -> bool:
        """A basic land (CR 205.4c): singleton and four-copy rules do not count it."""
        return "Basic" in self.supertypes

    @property
    def copies_allowed(self) -> int | None:
        """How many copies its own text allows (ANY_NUMBER for any), else None."""
        found = COPIES.search(self.oracle_text)
        if not found:
            return None
        if found.group(2) is None:
            return ANY_NUMBER
        return NUMBERS.get(found.group(2).lower())

    @property
    def is_companion(self) -> bool:
        """It has a companion ability (CR 702.139a: "Companion — [Condition]")."""
        return COMPANION.search(self.oracle_text) is not None

    @property
    def is_background(self) -> bool:
        return "Background" in self.subtypes and "Enchantment" in self.supertypes

    @property
    def can_be_commander(self) -> bool:
        """CR 903.3: a legendary creature; or a card whose text says it can be."""
        types = self.supertypes
        if "Legendary" in types and "Creature" in types:
            return True
        return "can be your commander" in self.oracle_text

    @property
    def pairing(self) -> str:
        """How it may share the command zone: "partner", "partner:QUALITY",
        "partner_with:NAME", "friends_forever", "choose_background", "doctors_companion",
        "background", "doctor", or "" for none."""
        for raw in self.oracle_text.split("\n"):
            line = REMINDER.sub("", raw).strip()
            if line.startswith("Partner with "):
                return "partner_with:" + line.removeprefix("Partner with ").strip()
            if line.startswith("Partner\u2014") or line.startswith("Partner--"):
                return "partner:" + re.split(r"\u2014|--", line, maxsplit=1)[1].strip()
            if line == "Partner":
                return "partner"
            if line == "Friends forever":
                return "friends_forever"
            if line == "Choose a Background":
                return "choose_background"
            if line == "Doctor's companion":
                return "doctors_companion"
        if self.is_background:
            return "background"
        if "Time" in self.subtypes and "Doctor" in self.subtypes:
            return "doctor"
        return ""

    def legality(self, format_name: str) -> str:
        """ "legal", "banned", "restricted" or "not_legal" (missing: not_legal)."""
        return self.legalities.get(format_name, "not_legal")


def identity_of(colors) -> str:
    """Color letters in WUBRG order, others dropped."""
    letters = set(colors or ())
    return "".join(color for color in COLORS if color in letters)


def _unstorable(value: str) -> str:
    """Why `value` cannot be stored as text, or "": PostgreSQL's text holds no NUL, and
    UTF-8 (the database's and the terminal's) no lone surrogate, which JSON's `\\ud800`
    escape can still write."""
    if "\x00" in value:
        return "holds a NUL character"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "holds a lone surrogate, which is no UTF-8 text"
    return ""


def _oracle_id(value: object) -> str | None:
    """The Oracle id in its canonical form (lower-case, dashed), None if it is no UUID."""
    if not isinstance(value, str):
        return None
    try:
        return str(uuid.UUID(value))
    except ValueError:
        return None


def card_from_scryfall(obj: Mapping, index: int = 0) -> Card | None:
    """A Card from one Scryfall card object; None for what no deck holds (tokens, emblems,
    art cards, planes, schemes). Raises CardDataError, with the item's index, its name when
    it can be shown and the field that is wrong, when it is no card object at all or a field
    the rules read is not of its kind (an Oracle id that is no UUID, faces that are no
    objects, a type line or text that is no text, or text the database cannot store)."""
    if not isinstance(obj, Mapping) or obj.get("object") != "card":
        raise CardDataError(f"item {index} is not a Scryfall card object")
    name = obj.get("name")
    if isinstance(name, str) and _unstorable(name):
        raise CardDataError(f"item {index}: name {_unstorable(name)}")
    where = f"item {index} ({name.strip()})" if isinstance(name, str) and name.strip() else ""

    def text(value: object, field: str) -> str:
        if not isinstance(value, str):
            raise CardDataError(f"{where or f'item {index}'}: {field} is not text")
        if _unstorable(value):
            raise CardDataError(f"{where or f'item {index}'}: {field} {_unstorable(value)}")
        return value

    layout = obj.get("layout")
    layout = "normal" if layout in (None, "") else text(layout, "layout")
    if layout in NOT_CARDS:
        return None
    faces = obj.get("card_faces") or []
    if not isinstance(faces, list) or not all(isinstance(f, Mapping) for f in faces):
        raise CardDataError(f"{where or f'item {index}'}: card_faces is not a list of card "
                            "face objects")  # fmt: skip
    raw_id = obj.get("oracle_id") or (faces[0].get("oracle_id") if faces else None)
    if not raw_id or not where:
        raise CardDataError(f"item {index} has no oracle_id or name")
    oracle_id = _oracle_id(raw_id)
    if oracle_id is None:
        raise CardDataError(f"{where}: oracle_id {raw_id!r:.60} is not a UUID")
    type_line = obj.get("type_line")
    if type_line in (None, ""):
        type_line = " // ".join(
            text(f.get("type_line", ""), f"card_faces[{i}].type_line") for i, f in enumerate(faces)
        )
    type_line = text(type_line, "type_line")
    oracle_text = obj.get("oracle_text")
    if oracle_text is None:
        oracle_text = "\n".join(
            text(f.get("oracle_text", ""), f"card_faces[{i}].oracle_text")
            for i, f in enumerate(faces)
        )
    oracle_text = text(oracle_text, "oracle_text")
    colors = obj.get("color_identity") or []
    if not isinstance(colors, list) or not all(isinstance(c, str) for c in colors):
        raise CardDataError(f"{where}: color_identity is not a list of color letters")
    legalities = obj.get("legalities") or {}
    if not isinstance(legalities, Mapping):
        raise CardDataError(f"{where}: legalities is not an object")
    for key, value in legalities.items():
        text(key, "a legalities key")
        text(value, f"legalities[{key!r:.40}]")
    return Card(
        oracle_id=oracle_id,
        name=name.strip(),
        type_line=type_line,
        oracle_text=oracle_text,
        color_identity=identity_of(colors),
        legalities=dict(legalities),
        layout=layout,
    )


def front_key(card: Card) -> str:
    """The key of its first face's name, for a multi-face card ("" otherwise)."""
    front = front_face(card.name)
    return card_key(front) if front != card.name else ""
