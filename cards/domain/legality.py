"""Whether a parsed decklist is legal in a format, with every problem given its line and
the rule it breaks. One rule set per kind of format, chosen once (`rules_for`):

Commander (CR 903; Commander Rules Committee ban list as carried in the card data's
`commander` legality):
- one commander, or two that the rules let share the command zone (CR 702.124: Partner,
  Partner with, Friends forever, Choose a Background, Doctor's companion);
- each commander can be one (CR 903.3);
- exactly 100 cards with the commanders (CR 903.5a);
- one copy of each card except basic lands and cards whose text allows more (CR 903.5b);
- every card within the commanders' color identity (CR 903.5c);
- no banned card, no card the format does not allow (its legality in the card data).
- a companion (Arena's `Companion` section) is no sideboard: at most one (CR 103.2b), a card
  with a companion ability (CR 702.139a), not counted in the 100, and, as the Commander
  format's rules say (mtgcommander.net: "it must adhere to color identity and singleton
  rules ... effectively a 101st card"), within the identity and one copy with the deck.
  Whether the deck meets the companion's condition is the judge's to see.
A list without a `Commander` section names its commanders in the sideboard (MTGO's export),
or the caller gives them (the deck's name): then a line of the list naming a chosen commander
is that commander, wherever it is (Moxfield and Archidekt put it in the main deck), and only
a further copy is one too many (`_commander_lines`).

60-card constructed (Standard, Pioneer, Modern, Legacy, Vintage, Pauper...; CR 100.2a,
100.4a, and each format's banned and restricted list, from the card data):
- at least 60 cards in the main deck; at most 15 in the sideboard;
- at most four of a card over main deck and sideboard (one of a restricted card), except
  basic lands and cards whose text allows more;
- no banned card and no card the format does not allow.
A companion there is a sideboard card (CR 702.139a); Arena names it in both its `Companion`
section and the sideboard, which is one card, not two.

Names are resolved by a `lookup(names) -> {name: Card}` the caller gives (the database, or a
dict in tests); a name it does not know is a problem on its line. Pure Python: no Django.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from core.translate import gettext, ngettext

from .card import ANY_NUMBER, Card
from .decklist import COMMANDER, COMPANION, MAIN, SIDEBOARD, DeckLine, ParsedList

Lookup = Callable[[Iterable[str]], Mapping[str, Card]]

SIXTY_CARD_FORMATS = (
    "standard", "pioneer", "modern", "legacy", "vintage", "pauper",
    "historic", "timeless", "explorer", "premodern", "oldschool", "penny",
)  # fmt: skip
COMMANDER_FORMATS = ("commander",)
FORMATS = COMMANDER_FORMATS + SIXTY_CARD_FORMATS

RULES = {
    "unread": "a line that is no card line",
    "unknown-card": "a name the card data does not know",
    "commander-count": "CR 903.3 / 702.124: one commander, or two that may be partners",
    "commander-eligible": "CR 903.3: a commander is a legendary creature or says it can be",
    "commander-pair": "CR 702.124: both commanders must have a matching partner ability",
    "deck-size": "CR 903.5a (Commander: exactly 100) / CR 100.2a (constructed: at least 60)",
    "singleton": "CR 903.5b: one copy of each card except basic lands",
    "color-identity": "CR 903.5c: every card within the commanders' color identity",
    "copies": "CR 100.2a: at most four of a card except basic lands",
    "restricted": "a restricted card: at most one copy",
    "sideboard-size": "CR 100.4a: a sideboard of at most 15 cards",
    "sideboard": "a Commander deck has no sideboard",
    "companion": "CR 103.2b / 702.139a: at most one companion, a card with a companion ability",
    "banned": "on the format's banned list",
    "not-legal": "not legal in the format",
    "too-long": "the list is past the size limit",
}


@dataclass(frozen=True)
class Problem:
    line: int | None  # the list's line, None for the list as a whole
    rule: str  # a key of RULES
    message: str
    card: str = ""

    def as_dict(self) -> dict:
        return {"line": self.line, "rule": self.rule, "message": self.message, "card": self.card}


@dataclass(frozen=True)
class Counted:
    card: Card
    count: int
    section: str
    first_line: int


@dataclass(frozen=True)
class Report:
    format: str
    problems: tuple[Problem, ...]
    cards: tuple[Counted, ...] = ()
    commanders: tuple[Card, ...] = ()
    color_identity: str = ""
    size: int = 0
    sideboard_size: int = 0

    @property
    def legal(self) -> bool:
        return not self.problems


class UnknownFormat(ValueError):
    pass


def _sort(problems: list[Problem]) -> tuple[Problem, ...]:
    return tuple(sorted(problems, key=lambda p: (p.line is not None, p.line or 0)))


def _resolve(parsed: ParsedList, lookup: Lookup, problems: list[Problem]):
    """(line, card) for each line whose name is known; a problem for each other line."""
    for unread in parsed.unread:
        problems.append(
            Problem(
                unread.number,
                "unread",
                gettext("“%(text)s”: %(reason)s.") % {"text": unread.text, "reason": unread.reason},
            )
        )
    found = lookup({line.name for line in parsed.lines})
    resolved: list[tuple[DeckLine, Card]] = []
    for line in parsed.lines:
        card = found.get(line.name)
        if card is None:
            problems.append(
                Problem(
                    line.number,
                    "unknown-card",
                    gettext("No card named “%(name)s”.") % {"name": line.name},
                    line.name,
                )
            )
            continue
        resolved.append((line, card))
    return resolved


def _count(resolved, sections) -> dict[str, Counted]:
    totals: dict[str, Counted] = {}
    for line, card in resolved:
        if line.section not in sections:
            continue
        key = (card.oracle_id, line.section)
        before = totals.get(key)
        totals[key] = Counted(
            card,
            line.count + (before.count if before else 0),
            line.section,
            before.first_line if before else line.number,
        )
    return totals


def _legality(card: Card, line: int, fmt: str, problems: list[Problem]) -> None:
    status = card.legality(fmt)
    if status == "banned":
        problems.append(
            Problem(
                line,
                "banned",
                gettext("%(card)s is banned in %(format)s.") % {"card": card.name, "format": fmt},
                card.name,
            )
        )
    elif status == "not_legal":
        problems.append(
            Problem(
                line,
                "not-legal",
                gettext("%(card)s is not legal in %(format)s.")
                % {"card": card.name, "format": fmt},
                card.name,
            )
        )


def pair_allowed(first: Card, second: Card) -> bool:
    """Whether two commanders may share the command zone (CR 702.124)."""
    a, b = first.pairing, second.pairing
    if a == "partner" and b == "partner":
        return True
    if a.startswith("partner:") and a == b:
        return True
    if a.startswith("partner_with:") and b.startswith("partner_with:"):
        return a.split(":", 1)[1] == second.name and b.split(":", 1)[1] == first.name
    if a == b == "friends_forever":
        return True
    if {a, b} == {"choose_background", "background"}:
        return True
    return {a, b} == {"doctors_companion", "doctor"}


def _commander_lines(parsed: ParsedList, resolved, lookup: Lookup, commanders, problems):
    """The resolved lines with the commanders' in the COMMANDER section. The commanders are
    the list's own `Commander` section (or lines marked as such); else the `commanders` the
    caller names (the deck's name), each taking one copy from the first line naming it (the
    sideboard's first: MTGO's commander section; then the main deck's, as Moxfield and
    Archidekt export it), or a line 0 of its own when the list does not name it; else an
    MTGO sideboard of one or two cards. A card named by a line is matched by the card, not
    the spelling."""
    resolved = list(resolved)
    has_section = bool(parsed.section(COMMANDER))
    if commanders:
        in_zone = {card.oracle_id for line, card in resolved if line.section == COMMANDER}
        found = lookup(set(commanders))
        for name in commanders:
            card = found.get(name)
            if card is None:
                if not has_section:
                    problems.append(
                        Problem(
                            None,
                            "unknown-card",
                            gettext("No card named “%(name)s” (the deck's commander).")
                            % {"name": name},
                            name,
                        )
                    )
                continue
            if card.oracle_id in in_zone:
                continue
            in_zone.add(card.oracle_id)
            at = next(
                (i for section in (SIDEBOARD, MAIN) for i, (line, c) in enumerate(resolved)
                 if line.section == section and c.oracle_id == card.oracle_id),
                None,
            )  # fmt: skip
            if at is not None:
                line, _ = resolved[at]
                taken = [(DeckLine(line.number, 1, line.name, COMMANDER), card)]
                if line.count > 1:  # the other copies stay where they were (and are counted)
                    taken.append((DeckLine(line.number, line.count - 1, line.name, line.section),
                                  card))  # fmt: skip
                resolved[at : at + 1] = taken
            elif not has_section:
                resolved.append((DeckLine(0, 1, name, COMMANDER), card))
        return resolved
    side = sum(line.count for line, _ in resolved if line.section == SIDEBOARD)
    if not has_section and 1 <= side <= 2 and not parsed.has_headers:
        # MTGO: the commander is the sideboard.
        resolved = [
            (DeckLine(line.number, line.count, line.name, COMMANDER), card)
            if line.section == SIDEBOARD
            else (line, card)
            for line, card in resolved
        ]
    return resolved


def check_commander(parsed: ParsedList, lookup: Lookup, *, commanders=(), fmt="commander"):
    problems: list[Problem] = []
    resolved = _resolve(parsed, lookup, problems)
    resolved = _commander_lines(parsed, resolved, lookup, commanders, problems)
    command = [(line, card) for line, card in resolved if line.section == COMMANDER]
    deck = [(line, card) for line, card in resolved if line.section == MAIN]
    side = [(line, card) for line, card in resolved if line.section == SIDEBOARD]
    companion = [(line, card) for line, card in resolved if line.section == COMPANION]
    for line, _card in side:
        problems.append(
            Problem(
                line.number, "sideboard", gettext("A Commander deck has no sideboard."), line.name
            )
        )
    cmd_cards = [card for _, card in command]
    cmd_count = sum(line.count for line, _ in command)
    if cmd_count == 0:
        problems.append(
            Problem(None, "commander-count", gettext("Name the commander: none was given."))
        )
    elif cmd_count > 2 or len(cmd_cards) != cmd_count:
        problems.append(
            Problem(command[0][0].number or None, "commander-count",
                    gettext("%(count)s commanders: at most two, and two different cards.")
                    % {"count": cmd_count})
        )  # fmt: skip
    for line, card in command:
        if card.can_be_commander:
            continue
        if card.is_background and any(c.pairing == "choose_background" for c in cmd_cards):
            continue
        problems.append(
            Problem(line.number or None, "commander-eligible",
                    gettext("%(card)s cannot be a commander (%(type)s).")
                    % {"card": card.name, "type": card.type_line}, card.name)
        )  # fmt: skip
    if len(cmd_cards) == 2 and cmd_count == 2 and not pair_allowed(*cmd_cards):
        a, b = cmd_cards
        problems.append(
            Problem(command[1][0].number or None, "commander-pair",
                    gettext("%(a)s and %(b)s cannot be commanders together: both need a "
                      "matching Partner, Friends forever, Background or Doctor ability.")
                    % {"a": a.name, "b": b.name})
        )  # fmt: skip
    identity = set("".join(card.color_identity for card in cmd_cards))
    shown = "".join(c for c in "WUBRG" if c in identity)
    size = cmd_count + sum(line.count for line, _ in deck)
    unknown = sum(1 for p in problems if p.rule in ("unknown-card", "unread"))
    if size != 100:
        if unknown:
            text = ngettext(
                "The deck has %(size)s cards with its commanders (not counting %(unknown)s "
                "unknown line): exactly 100.",
                "The deck has %(size)s cards with its commanders (not counting %(unknown)s "
                "unknown lines): exactly 100.",
                unknown,
            )
        else:
            text = gettext("The deck has %(size)s cards with its commanders: exactly 100.")
        problems.append(
            Problem(None, "deck-size", text % {"size": size, "unknown": unknown})
        )  # fmt: skip
    seen: dict[str, int] = {}
    copies: dict[str, int] = {}
    for line, card in command:
        seen[card.oracle_id] = line.number
        copies[card.oracle_id] = copies.get(card.oracle_id, 0) + line.count
        _legality(card, line.number or None, fmt, problems)
    if sum(line.count for line, _ in companion) > 1:
        problems.append(
            Problem(companion[0][0].number, "companion",
                    gettext("More than one companion: at most one."))
        )  # fmt: skip
    for line, card in companion:
        if not card.is_companion:
            problems.append(
                Problem(
                    line.number,
                    "companion",
                    gettext("%(card)s has no companion ability.") % {"card": card.name},
                    card.name,
                )
            )
    for line, card in [*deck, *companion]:
        copies[card.oracle_id] = copies.get(card.oracle_id, 0) + line.count
        allowed = ANY_NUMBER if card.is_basic else (card.copies_allowed or 1)
        if copies[card.oracle_id] > allowed:
            first = seen.get(card.oracle_id)
            elsewhere = first and first != line.number
            if allowed == 1:
                text = (
                    gettext("%(copies)s copies of %(card)s (first on line %(first)s): one copy.")
                    if elsewhere
                    else gettext("%(copies)s copies of %(card)s: one copy.")
                )
            else:
                text = (
                    gettext(
                        "%(copies)s copies of %(card)s (first on line %(first)s): at most "
                        "%(allowed)s copies."
                    )
                    if elsewhere
                    else gettext("%(copies)s copies of %(card)s: at most %(allowed)s copies.")
                )
            values = {
                "copies": copies[card.oracle_id],
                "card": card.name,
                "first": first,
                "allowed": allowed,
            }
            problems.append(Problem(line.number, "singleton", text % values, card.name))
        seen.setdefault(card.oracle_id, line.number)
        if cmd_cards and not set(card.color_identity) <= identity:
            problems.append(
                Problem(
                    line.number,
                    "color-identity",
                    gettext(
                        "%(card)s (%(identity)s) is outside the commanders' color identity "
                        "(%(shown)s)."
                    )
                    % {
                        "card": card.name,
                        "identity": card.color_identity or gettext("colorless"),
                        "shown": shown or gettext("colorless"),
                    },
                    card.name,
                )
            )
        _legality(card, line.number, fmt, problems)
    counted = tuple(_count(resolved, {COMMANDER, MAIN, COMPANION}).values())
    return Report(fmt, _sort(problems), counted, tuple(cmd_cards), shown, size, 0)


def check_sixty(parsed: ParsedList, lookup: Lookup, *, fmt: str, commanders=()):
    problems: list[Problem] = []
    resolved = _sideboard_companion(_resolve(parsed, lookup, problems))
    for line, card in resolved:
        if line.section == COMMANDER:
            problems.append(
                Problem(
                    line.number,
                    "not-legal",
                    gettext("%(format)s has no commander.") % {"format": fmt},
                    card.name,
                )
            )
    main = sum(line.count for line, _ in resolved if line.section == MAIN)
    side = sum(line.count for line, _ in resolved if line.section == SIDEBOARD)
    if main < 60:
        problems.append(
            Problem(
                None,
                "deck-size",
                gettext("The main deck has %(count)s cards: at least 60.") % {"count": main},
            )
        )
    if side > 15:
        problems.append(
            Problem(
                None,
                "sideboard-size",
                gettext("The sideboard has %(count)s cards: at most 15.") % {"count": side},
            )
        )
    copies: dict[str, int] = {}
    first: dict[str, int] = {}
    for line, card in resolved:
        if line.section == COMMANDER:
            continue
        copies[card.oracle_id] = copies.get(card.oracle_id, 0) + line.count
        status = card.legality(fmt)
        if status == "restricted":
            allowed, rule = 1, "restricted"
        else:
            allowed = ANY_NUMBER if card.is_basic else (card.copies_allowed or 4)
            rule = "copies"
        if copies[card.oracle_id] > allowed:
            if first.get(card.oracle_id, line.number) != line.number:
                text = gettext(
                    "%(copies)s copies of %(card)s (with line %(first)s): at most %(allowed)s."
                )
            else:
                text = gettext("%(copies)s copies of %(card)s: at most %(allowed)s.")
            values = {
                "copies": copies[card.oracle_id],
                "card": card.name,
                "first": first.get(card.oracle_id),
                "allowed": allowed,
            }
            problems.append(Problem(line.number, rule, text % values, card.name))
        first.setdefault(card.oracle_id, line.number)
        if status != "restricted":
            _legality(card, line.number, fmt, problems)
    counted = tuple(_count(resolved, {MAIN, SIDEBOARD}).values())
    return Report(fmt, _sort(problems), counted, (), "", main, side)


def _sideboard_companion(resolved):
    """A 60-card list's companion is a sideboard card: a `Companion` line counts as one unless
    the sideboard names the same card (Arena's export lists it in both)."""
    in_side = {card.oracle_id for line, card in resolved if line.section == SIDEBOARD}
    kept = []
    for line, card in resolved:
        if line.section == COMPANION:
            if card.oracle_id in in_side:
                continue
            line = DeckLine(line.number, line.count, line.name, SIDEBOARD)
        kept.append((line, card))
    return kept


def check(parsed: ParsedList, lookup: Lookup, *, fmt: str, commanders=()) -> Report:
    """Every problem of `parsed` in format `fmt` (one of FORMATS)."""
    if fmt in COMMANDER_FORMATS:
        return check_commander(parsed, lookup, commanders=commanders, fmt=fmt)
    if fmt in SIXTY_CARD_FORMATS:
        return check_sixty(parsed, lookup, fmt=fmt)
    raise UnknownFormat(
        gettext("Unknown format %(format)s: one of %(formats)s.")
        % {"format": repr(fmt), "formats": ", ".join(FORMATS)}
    )
