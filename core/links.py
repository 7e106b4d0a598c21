"""The one rule for a link a person gives the site (a decklist's address): `link_clean`.

Wherever such a link is read (the deck form, a store's import), it goes through `link_clean`,
so what the form takes an export writes and the import takes back. The rule is the one the
deck form has always kept: an http:// or https:// address with a host, at most 500
characters. A space, a tab or another invisible character inside it is written the way a
browser sends it (`%20`, `%09`), rather than refused: a pasted link with a space still opens,
and the rows stored before the rule (the form kept such spaces) import. Nothing else is
changed: a host without a dot or an odd port is the player's own business, as it always was.
Plain Python, no Django.
"""

import unicodedata
from urllib.parse import quote, urlsplit

from .errors import DomainError
from .translate import gettext as _

MAX_LENGTH = 500  # the column's length (tournaments.Entry.decklist_url)


class LinkError(DomainError):
    """A link that is not a web address the site can keep (400)."""

    default_code = "bad_link"


def _invisible(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf")


def link_clean(
    url: str,
    *,
    label: str | None = None,
    field: str | None = None,
    max_length: int = MAX_LENGTH,
    stored: bool = False,
) -> str:
    """`url` as the site keeps it ("" for none): trimmed, its inner spaces and invisible
    characters percent-encoded; or LinkError saying why it cannot be kept. `stored`: a link
    the site already kept (an import), which stays as it was when writing its spaces as %20
    would make it longer than `max_length` (a row stored before the spaces were written)."""
    # Translators: the subject of the sentences below ("The link is not a web address...").
    label = label or _("The link")
    raw = (url or "").strip()
    if not raw:
        return ""
    link = "".join(quote(ch, safe="") if _invisible(ch) else ch for ch in raw)
    try:
        parts = urlsplit(link)
    except ValueError:  # e.g. "https://[::1": a bracket that is not an IPv6 address
        raise LinkError(
            message=_("%(label)s is not a web address: check the part after https://.")
            % {"label": label},
            field=field,
        ) from None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise LinkError(
            message=_("%(label)s must be a web address starting with https:// or http://.")
            % {"label": label},
            field=field,
        )
    if len(link) > max_length and stored and len(raw) <= max_length:
        return raw
    if len(link) > max_length:
        if link != raw:
            message = _(
                "%(label)s is %(length)s characters long once its spaces are written as %%20; "
                "at most %(max)s."
            )
        else:
            message = _("%(label)s is %(length)s characters long; at most %(max)s.")
        raise LinkError(
            message=message % {"label": label, "length": len(link), "max": max_length},
            field=field,
        )
    return link
