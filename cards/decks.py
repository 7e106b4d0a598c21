"""A decklist checked against the card data: the one place the web pages, the services and
`check_decklist` ask (parse, resolve names from the database, apply the format's rules)."""

from .domain import legality
from .domain.decklist import DecklistTooLong, parse
from .domain.legality import Problem, Report
from .selectors import cards_by_names


def decklist_check(*, text: str, fmt: str, commanders=(), max_chars=None) -> Report:
    """Every problem of the pasted `text` in format `fmt`; a list past the size limit is one
    problem, not an error."""
    try:
        parsed = parse(text, **({"max_chars": max_chars} if max_chars else {}))
    except DecklistTooLong as error:
        return Report(fmt, (Problem(None, "too-long", str(error)),))
    return legality.check(parsed, cards_by_names, fmt=fmt, commanders=tuple(commanders))
