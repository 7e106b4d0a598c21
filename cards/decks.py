"""A decklist checked against the card data: the one place the web pages, the services and
`check_decklist` ask (parse, resolve names from the database, apply the format's rules)."""

from django.utils.translation import gettext as _

from .domain import legality
from .domain.card import Card as DomainCard
from .domain.decklist import DecklistTooLong, parse
from .domain.legality import Problem, Report, pair_allowed
from .selectors import cards_by_names


def decklist_check(*, text: str, fmt: str, commanders=(), max_chars=None) -> Report:
    """Every problem of the pasted `text` in format `fmt`; a list past the size limit is one
    problem, not an error."""
    try:
        parsed = parse(text, **({"max_chars": max_chars} if max_chars else {}))
    except DecklistTooLong as error:
        return Report(fmt, (Problem(None, "too-long", str(error)),))
    return legality.check(parsed, cards_by_names, fmt=fmt, commanders=tuple(commanders))


def commanders_resolve(names: list[str]) -> tuple[list[DomainCard], str]:
    """The commanders named (one, or a pair), and "" when they may lead a deck together;
    else what is wrong, in a sentence for the player (CR 903.3, 702.124)."""
    if not names:
        return [], ""
    if len(names) > 2:
        return [], f"{len(names)} commanders: at most two (partners, or a Background)."
    found = cards_by_names(names)
    cards = []
    for name in names:
        card = found.get(name)
        if card is None:
            return [], _("No card named “%(name)s”: pick a commander from the list.") % {
                "name": name
            }
        cards.append(card)
    for card in cards:
        status = card.legality("commander")
        if status != "legal":
            word = "banned" if status == "banned" else "not legal"
            return cards, f"{card.name} is {word} in Commander."
        background_ok = card.is_background and any(
            other.pairing == "choose_background" for other in cards
        )
        if not card.can_be_commander and not background_ok:
            return cards, _("%(card)s cannot be a commander (%(type)s).") % {
                "card": card.name,
                "type": card.type_line,
            }
    if len(cards) == 2:
        if cards[0].oracle_id == cards[1].oracle_id:
            return cards, _("The same commander twice.")
        if not pair_allowed(*cards):
            return cards, _(
                "%(a)s and %(b)s cannot be commanders together: both need a "
                "matching Partner, Friends forever, Background or Doctor ability."
            ) % {"a": cards[0].name, "b": cards[1].name}
    return cards, ""


def identity_of_commanders(cards) -> str:
    """The commanders' color identity in WUBRG order, "C" for colorless."""
    letters = set("".join(card.color_identity for card in cards))
    return "".join(c for c in "WUBRG" if c in letters) or "C"
