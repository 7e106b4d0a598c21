"""Who did something, as the audit trail and the other apps record it.

Plain functions of a user object (or None), so that models and services of any app can name
the actor without importing permissions or models.
"""

import re

from django.utils.translation import gettext, gettext_lazy, gettext_noop, pgettext_lazy


def acting_user(user):
    """The user to record as having done something, or None for anonymous or no user."""
    return user if user is not None and user.is_authenticated else None


def actor_label(by=None, via: str = "") -> str:
    """Who did it, as the log keeps it: "olive", "olive (API token scorebot)", "import"."""
    user = acting_user(by)
    name = user.get_username() if user is not None else ""
    if name and via:
        return f"{name} ({via})"
    return name or via or "system"


# How a change came in, as `via` names it in an actor's label (English, as its writer put it):
# each written in the reader's language where the History shows who did it (`actor_text`).
VIA_LABELS = {
    "player's link": gettext_lazy("player's link"),
    "admin": pgettext_lazy("how a change came in", "admin"),
    "import": pgettext_lazy("how a change came in", "import"),
    "penalty": pgettext_lazy("how a change came in", "penalty"),
    "the TO's phone, offline": gettext_lazy("the TO's phone, offline"),
    "system": pgettext_lazy("who made a change", "system"),
}
# The ways with a value in them, as their writers put them (ratings.api, the TO's choice of a
# report in tournaments.services.reports, a tap from the console's offline queue in
# tournaments.console.views.tables), and their msgids with the values named.
VIA_PATTERNS = [
    (re.compile(r"API token (?P<name>.+)"), gettext_noop("API token %(name)s")),
    (
        re.compile(r"chose (?P<player>.+)'s report (?P<number>\d+)"),
        gettext_noop("chose %(player)s's report %(number)s"),
    ),
    (
        re.compile(r"the phone's queue, tapped at (?P<time>[\d:]+) offline"),
        gettext_noop("the phone's queue, tapped at %(time)s offline"),
    ),
]


def _via_text(via: str) -> str | None:
    """`via` in the reader's language, or None for one this module does not know."""
    if via in VIA_LABELS:
        return str(VIA_LABELS[via])
    for pattern, msgid in VIA_PATTERNS:
        if match := pattern.fullmatch(via):
            return gettext(msgid) % match.groupdict()
    return None


def actor_text(label: str) -> str:
    """An entry's `actor_label` in the reader's language: the ways a change comes in that the
    label names ("olive (player's link)", "import", "system") translated, a name as it is."""
    shown = _via_text(label)
    if shown is not None:
        return shown
    name, sep, via = label.partition(" (")
    if sep and via.endswith(")") and (shown := _via_text(via[:-1])) is not None:
        # Translators: who made a change and how it came in: "olive (player's link)".
        return gettext("%(name)s (%(via)s)") % {"name": name, "via": shown}
    return label
