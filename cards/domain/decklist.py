"""A pasted decklist read into (line number, count, name, section) lines, in the shapes
players paste:
- MTGO: `4 Lightning Bolt`, the sideboard after a blank line or a `Sideboard` line
  (or each line `SB: 2 Duress`);
- Arena: `Commander`, `Deck`, `Sideboard`, `Companion` headers, `1 Name (SET) 123`,
  an `About` block with `Name ...` left out (the `Companion` section is its own: in
  Commander the companion is no sideboard card, and in 60-card lists Arena names it in the
  sideboard too);
- plain: `1x Name`, or a name alone for one copy;
- the deck sites' markers after a line: `*CMDR*` (TappedOut) and Archidekt's categories
  `[Commander{top}]`, `[Ramp,Artifact]`: a line marked Commander is in the commander section,
  Sideboard in the sideboard, Maybeboard left out; other markers (`*F*` foil, other
  categories) are dropped from the name.
Comments (`#`, `//` at the start) and `Maybeboard`/`Considering` blocks are left out. A
line that cannot be read is returned with its number; the list is refused past a size.
Nothing here knows the cards: resolving names is the legality check's job. Pure Python.
"""

import re
from dataclasses import dataclass

from core.translate import gettext as _

MAX_CHARS = 20_000
MAX_LINES = 400
MAX_COUNT = 999

COMMANDER, MAIN, SIDEBOARD, COMPANION = "commander", "main", "sideboard", "companion"
HEADERS = {
    "commander": COMMANDER,
    "commanders": COMMANDER,
    "deck": MAIN,
    "main": MAIN,
    "maindeck": MAIN,
    "mainboard": MAIN,
    "sideboard": SIDEBOARD,
    "companion": COMPANION,  # Arena: the card revealed from outside the game (CR 702.139a)
    "about": None,
    "maybeboard": None,
    "considering": None,
}
LINE = re.compile(
    r"""^(?:(?P<count>\d{1,4})\s*[xX]?\s+)?      # 4 / 4x / none
        (?P<name>.+?)
        (?:\s+\((?P<set>[A-Za-z0-9]{2,8})\)(?:\s+\S+)?)?   # (SET) 123
        (?P<marks>(?:\s+(?:\*[A-Za-z]+\*|\[[^\]]*\]))*)  # *F* *CMDR* [Commander{top}]
        \s*$""",
    re.VERBOSE,
)


MARK = re.compile(r"\*([A-Za-z]+)\*|\[([^\]]*)\]")


def _marked_section(marks: str) -> str | None:
    """The section the line's markers put it in: COMMANDER for `*CMDR*` or an Archidekt
    category naming Commander (`[Commander{top},Ramp]`), SIDEBOARD for `[Sideboard]`, "" (left
    out) for `[Maybeboard]` or `[Considering]`; None when they name no section."""
    for star, categories in MARK.findall(marks or ""):
        if star.casefold() == "cmdr":
            return COMMANDER
        for category in categories.split(","):
            word = re.sub(r"\{[^}]*\}", "", category).strip().casefold()
            if word in ("commander", "sideboard", "maybeboard", "considering"):
                return HEADERS[word] or ""
    return None


class DecklistTooLong(ValueError):
    """The pasted list is past the size limit; nothing was read."""


@dataclass(frozen=True)
class DeckLine:
    number: int  # 1-based line of the pasted text
    count: int
    name: str
    section: str  # COMMANDER, MAIN, SIDEBOARD or COMPANION


@dataclass(frozen=True)
class Unread:
    number: int
    text: str
    reason: str


@dataclass(frozen=True)
class ParsedList:
    lines: tuple[DeckLine, ...]
    unread: tuple[Unread, ...]
    has_headers: bool  # a Commander/Deck/Sideboard header was given

    def section(self, name: str) -> list[DeckLine]:
        return [line for line in self.lines if line.section == name]


def _header(text: str) -> tuple[bool, str | None]:
    word = text.strip().rstrip(":").strip().casefold()
    if word in HEADERS:
        return True, HEADERS[word]
    return False, None


def parse(text: str, *, max_chars: int = MAX_CHARS, max_lines: int = MAX_LINES) -> ParsedList:
    """The lines of a pasted list; raises DecklistTooLong past `max_chars` or `max_lines`."""
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > max_chars:
        raise DecklistTooLong(
            _("The list is %(count)s characters long; at most %(max)s.")
            % {"count": f"{len(text):,}", "max": f"{max_chars:,}"}
        )
    rows = text.split("\n")
    while rows and not rows[-1].strip():
        rows.pop()
    if len(rows) > max_lines:
        raise DecklistTooLong(
            _("The list has %(count)s lines; at most %(max)s.")
            % {"count": f"{len(rows):,}", "max": f"{max_lines:,}"}
        )
    lines: list[DeckLine] = []
    unread: list[Unread] = []
    section: str | None = MAIN
    has_headers = False
    for number, raw in enumerate(rows, start=1):
        stripped = raw.strip()
        if not stripped:
            # MTGO: the first blank line after the main deck starts the sideboard.
            if not has_headers and section == MAIN and lines:
                section = SIDEBOARD
            continue
        if stripped.startswith("#") or stripped.startswith("//"):
            continue
        is_header, heading = _header(stripped)
        if is_header:
            has_headers = True
            section = heading
            continue
        if section is None:  # About, Maybeboard: not part of the deck
            continue
        line_section = section
        if stripped[:3].upper() == "SB:":
            stripped, line_section = stripped[3:].strip(), SIDEBOARD
        found = LINE.match(stripped)
        name = found.group("name").strip() if found else ""
        if not found or not name or not any(ch.isalpha() for ch in name):
            unread.append(Unread(number, stripped, _("not a card line (expected “4 Card Name”)")))
            continue
        count = int(found.group("count")) if found.group("count") else 1
        if count < 1 or count > MAX_COUNT:
            unread.append(
                Unread(
                    number,
                    stripped,
                    _("a count from 1 to %(max)s is expected") % {"max": MAX_COUNT},
                )
            )
            continue
        marked = _marked_section(found.group("marks"))
        if marked == "":  # Archidekt's maybeboard: not part of the deck
            continue
        line_section = marked or line_section
        lines.append(DeckLine(number, count, name, line_section))
    return ParsedList(tuple(lines), tuple(unread), has_headers)
